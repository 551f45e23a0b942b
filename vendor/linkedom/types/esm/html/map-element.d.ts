/**
 * @implements globalThis.HTMLMapElement
 */
export class HTMLMapElement extends HTMLElement implements globalThis.HTMLMapElement {
}
import { HTMLElement } from './element.js';
