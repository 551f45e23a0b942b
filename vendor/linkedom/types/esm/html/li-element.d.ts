/**
 * @implements globalThis.HTMLLIElement
 */
export class HTMLLIElement extends HTMLElement implements globalThis.HTMLLIElement {
}
import { HTMLElement } from './element.js';
