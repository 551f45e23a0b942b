/**
 * @implements globalThis.HTMLOutputElement
 */
export class HTMLOutputElement extends HTMLElement implements globalThis.HTMLOutputElement {
}
import { HTMLElement } from './element.js';
