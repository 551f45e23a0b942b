/**
 * @implements globalThis.HTMLParamElement
 */
export class HTMLParamElement extends HTMLElement implements globalThis.HTMLParamElement {
}
import { HTMLElement } from './element.js';
