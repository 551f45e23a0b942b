/**
 * @implements globalThis.HTMLPreElement
 */
export class HTMLPreElement extends HTMLElement implements globalThis.HTMLPreElement {
}
import { HTMLElement } from './element.js';
