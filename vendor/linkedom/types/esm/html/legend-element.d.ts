/**
 * @implements globalThis.HTMLLegendElement
 */
export class HTMLLegendElement extends HTMLElement implements globalThis.HTMLLegendElement {
}
import { HTMLElement } from './element.js';
