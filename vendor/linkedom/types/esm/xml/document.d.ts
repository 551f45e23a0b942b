/**
 * @implements globalThis.XMLDocument
 */
export class XMLDocument extends Document implements globalThis.XMLDocument {
    constructor();
}
import { Document } from '../interface/document.js';
