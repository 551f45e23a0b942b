/**
 * @implements globalThis.HTMLFrameElement
 */
export class HTMLFrameElement extends HTMLElement implements globalThis.HTMLFrameElement {
}
import { HTMLElement } from './element.js';
