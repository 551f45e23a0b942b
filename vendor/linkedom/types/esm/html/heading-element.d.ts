/**
 * @implements globalThis.HTMLHeadingElement
 */
export class HTMLHeadingElement extends HTMLElement implements globalThis.HTMLHeadingElement {
}
import { HTMLElement } from './element.js';
