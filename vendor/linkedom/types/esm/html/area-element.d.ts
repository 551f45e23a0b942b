/**
 * @implements globalThis.HTMLAreaElement
 */
export class HTMLAreaElement extends HTMLElement implements globalThis.HTMLAreaElement {
}
import { HTMLElement } from './element.js';
