/**
 * @implements globalThis.HTMLBodyElement
 */
export class HTMLBodyElement extends HTMLElement implements globalThis.HTMLBodyElement {
}
import { HTMLElement } from './element.js';
