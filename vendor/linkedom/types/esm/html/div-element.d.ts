/**
 * @implements globalThis.HTMLDivElement
 */
export class HTMLDivElement extends HTMLElement implements globalThis.HTMLDivElement {
}
import { HTMLElement } from './element.js';
