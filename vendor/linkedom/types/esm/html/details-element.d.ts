/**
 * @implements globalThis.HTMLDetailsElement
 */
export class HTMLDetailsElement extends HTMLElement implements globalThis.HTMLDetailsElement {
}
import { HTMLElement } from './element.js';
