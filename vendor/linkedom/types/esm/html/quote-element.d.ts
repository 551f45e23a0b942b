/**
 * @implements globalThis.HTMLQuoteElement
 */
export class HTMLQuoteElement extends HTMLElement implements globalThis.HTMLQuoteElement {
}
import { HTMLElement } from './element.js';
