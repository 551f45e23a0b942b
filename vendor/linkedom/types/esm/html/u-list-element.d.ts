/**
 * @implements globalThis.HTMLUListElement
 */
export class HTMLUListElement extends HTMLElement implements globalThis.HTMLUListElement {
}
import { HTMLElement } from './element.js';
