/**
 * @implements globalThis.HTMLSpanElement
 */
export class HTMLSpanElement extends HTMLElement implements globalThis.HTMLSpanElement {
}
import { HTMLElement } from './element.js';
