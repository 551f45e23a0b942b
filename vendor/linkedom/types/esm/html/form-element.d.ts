/**
 * @implements globalThis.HTMLFormElement
 */
export class HTMLFormElement extends HTMLElement implements globalThis.HTMLFormElement {
}
import { HTMLElement } from './element.js';
