/**
 * @implements globalThis.HTMLMenuElement
 */
export class HTMLMenuElement extends HTMLElement implements globalThis.HTMLMenuElement {
}
import { HTMLElement } from './element.js';
