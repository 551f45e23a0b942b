/**
 * @implements globalThis.HTMLOptGroupElement
 */
export class HTMLOptGroupElement extends HTMLElement implements globalThis.HTMLOptGroupElement {
}
import { HTMLElement } from './element.js';
