/**
 * @implements globalThis.HTMLMeterElement
 */
export class HTMLMeterElement extends HTMLElement implements globalThis.HTMLMeterElement {
}
import { HTMLElement } from './element.js';
