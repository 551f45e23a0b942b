/**
 * @implements globalThis.HTMLMediaElement
 */
export class HTMLMediaElement extends HTMLElement implements globalThis.HTMLMediaElement {
}
import { HTMLElement } from './element.js';
