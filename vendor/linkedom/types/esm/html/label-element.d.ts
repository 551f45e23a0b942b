/**
 * @implements globalThis.HTMLLabelElement
 */
export class HTMLLabelElement extends HTMLElement implements globalThis.HTMLLabelElement {
}
import { HTMLElement } from './element.js';
