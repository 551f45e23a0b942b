/**
 * @implements globalThis.HTMLDirectoryElement
 */
export class HTMLDirectoryElement extends HTMLElement implements globalThis.HTMLDirectoryElement {
}
import { HTMLElement } from './element.js';
