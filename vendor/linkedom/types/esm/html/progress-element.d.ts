/**
 * @implements globalThis.HTMLProgressElement
 */
export class HTMLProgressElement extends HTMLElement implements globalThis.HTMLProgressElement {
}
import { HTMLElement } from './element.js';
