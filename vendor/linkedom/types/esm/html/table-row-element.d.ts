/**
 * @implements globalThis.HTMLTableRowElement
 */
export class HTMLTableRowElement extends HTMLElement implements globalThis.HTMLTableRowElement {
}
import { HTMLElement } from './element.js';
