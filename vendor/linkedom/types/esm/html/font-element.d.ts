/**
 * @implements globalThis.HTMLFontElement
 */
export class HTMLFontElement extends HTMLElement implements globalThis.HTMLFontElement {
}
import { HTMLElement } from './element.js';
