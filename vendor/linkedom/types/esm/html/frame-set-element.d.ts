/**
 * @implements globalThis.HTMLFrameSetElement
 */
export class HTMLFrameSetElement extends HTMLElement implements globalThis.HTMLFrameSetElement {
}
import { HTMLElement } from './element.js';
