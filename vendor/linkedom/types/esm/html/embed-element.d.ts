/**
 * @implements globalThis.HTMLEmbedElement
 */
export class HTMLEmbedElement extends HTMLElement implements globalThis.HTMLEmbedElement {
}
import { HTMLElement } from './element.js';
