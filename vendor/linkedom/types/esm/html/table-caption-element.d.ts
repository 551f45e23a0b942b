/**
 * @implements globalThis.HTMLTableCaptionElement
 */
export class HTMLTableCaptionElement extends HTMLElement implements globalThis.HTMLTableCaptionElement {
}
import { HTMLElement } from './element.js';
