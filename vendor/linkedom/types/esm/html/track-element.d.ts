/**
 * @implements globalThis.HTMLTrackElement
 */
export class HTMLTrackElement extends HTMLElement implements globalThis.HTMLTrackElement {
}
import { HTMLElement } from './element.js';
