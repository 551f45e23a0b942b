/**
 * @implements globalThis.HTMLBRElement
 */
export class HTMLBRElement extends HTMLElement implements globalThis.HTMLBRElement {
}
import { HTMLElement } from './element.js';
