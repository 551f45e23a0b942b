/**
 * @implements globalThis.HTMLHRElement
 */
export class HTMLHRElement extends HTMLElement implements globalThis.HTMLHRElement {
}
import { HTMLElement } from './element.js';
