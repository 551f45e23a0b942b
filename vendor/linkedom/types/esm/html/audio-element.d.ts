/**
 * @implements globalThis.HTMLAudioElement
 */
export class HTMLAudioElement extends HTMLElement implements globalThis.HTMLAudioElement {
}
import { HTMLElement } from './element.js';
