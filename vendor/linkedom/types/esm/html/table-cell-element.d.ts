/**
 * @implements globalThis.HTMLTableCellElement
 */
export class HTMLTableCellElement extends HTMLElement implements globalThis.HTMLTableCellElement {
}
import { HTMLElement } from './element.js';
