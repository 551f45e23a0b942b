/**
 * @implements globalThis.HTMLTitleElement
 */
export class HTMLTitleElement extends TextElement implements globalThis.HTMLTitleElement {
}
import { TextElement } from './text-element.js';
