/**
 * @implements globalThis.HTMLHtmlElement
 */
export class HTMLHtmlElement extends HTMLElement implements globalThis.HTMLHtmlElement {
}
import { HTMLElement } from './element.js';
