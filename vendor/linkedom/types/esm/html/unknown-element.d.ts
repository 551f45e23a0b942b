/**
 * @implements globalThis.HTMLUnknownElement
 */
export class HTMLUnknownElement extends HTMLElement implements globalThis.HTMLUnknownElement {
}
import { HTMLElement } from './element.js';
