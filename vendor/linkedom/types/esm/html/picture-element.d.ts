/**
 * @implements globalThis.HTMLPictureElement
 */
export class HTMLPictureElement extends HTMLElement implements globalThis.HTMLPictureElement {
}
import { HTMLElement } from './element.js';
