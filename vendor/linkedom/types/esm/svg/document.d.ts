/**
 * @implements globalThis.Document
 */
export class SVGDocument extends Document implements globalThis.Document {
    constructor();
}
import { Document } from '../interface/document.js';
