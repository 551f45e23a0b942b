/**
 * @implements globalThis.HTMLTableElement
 */
export class HTMLTableElement extends HTMLElement implements globalThis.HTMLTableElement {
}
import { HTMLElement } from './element.js';
