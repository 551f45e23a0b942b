/**
 * @implements globalThis.HTMLHeadElement
 */
export class HTMLHeadElement extends HTMLElement implements globalThis.HTMLHeadElement {
}
import { HTMLElement } from './element.js';
