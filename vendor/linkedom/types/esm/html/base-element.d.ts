/**
 * @implements globalThis.HTMLBaseElement
 */
export class HTMLBaseElement extends HTMLElement implements globalThis.HTMLBaseElement {
}
import { HTMLElement } from './element.js';
