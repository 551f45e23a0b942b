/**
 * @implements globalThis.HTMLObjectElement
 */
export class HTMLObjectElement extends HTMLElement implements globalThis.HTMLObjectElement {
}
import { HTMLElement } from './element.js';
