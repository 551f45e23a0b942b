/**
 * @implements globalThis.HTMLModElement
 */
export class HTMLModElement extends HTMLElement implements globalThis.HTMLModElement {
}
import { HTMLElement } from './element.js';
