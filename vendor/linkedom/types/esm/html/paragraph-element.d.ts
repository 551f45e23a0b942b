/**
 * @implements globalThis.HTMLParagraphElement
 */
export class HTMLParagraphElement extends HTMLElement implements globalThis.HTMLParagraphElement {
}
import { HTMLElement } from './element.js';
