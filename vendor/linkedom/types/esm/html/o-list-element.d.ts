/**
 * @implements globalThis.HTMLOListElement
 */
export class HTMLOListElement extends HTMLElement implements globalThis.HTMLOListElement {
}
import { HTMLElement } from './element.js';
