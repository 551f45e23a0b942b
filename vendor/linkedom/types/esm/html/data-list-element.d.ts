/**
 * @implements globalThis.HTMLDataListElement
 */
export class HTMLDataListElement extends HTMLElement implements globalThis.HTMLDataListElement {
}
import { HTMLElement } from './element.js';
