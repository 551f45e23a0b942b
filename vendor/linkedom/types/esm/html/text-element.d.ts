export class TextElement extends HTMLElement {
    toString(): any;
}
import { HTMLElement } from './element.js';
