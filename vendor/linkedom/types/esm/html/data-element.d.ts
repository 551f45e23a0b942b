/**
 * @implements globalThis.HTMLDataElement
 */
export class HTMLDataElement extends HTMLElement implements globalThis.HTMLDataElement {
}
import { HTMLElement } from './element.js';
