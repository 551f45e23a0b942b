/**
 * @implements globalThis.HTMLVideoElement
 */
export class HTMLVideoElement extends HTMLElement implements globalThis.HTMLVideoElement {
}
import { HTMLElement } from './element.js';
