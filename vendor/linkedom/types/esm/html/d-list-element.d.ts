/**
 * @implements globalThis.HTMLDListElement
 */
export class HTMLDListElement extends HTMLElement implements globalThis.HTMLDListElement {
}
import { HTMLElement } from './element.js';
