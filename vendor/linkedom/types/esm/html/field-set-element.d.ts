/**
 * @implements globalThis.HTMLFieldSetElement
 */
export class HTMLFieldSetElement extends HTMLElement implements globalThis.HTMLFieldSetElement {
}
import { HTMLElement } from './element.js';
