/**
 * @implements globalThis.HTMLMarqueeElement
 */
export class HTMLMarqueeElement extends HTMLElement implements globalThis.HTMLMarqueeElement {
}
import { HTMLElement } from './element.js';
