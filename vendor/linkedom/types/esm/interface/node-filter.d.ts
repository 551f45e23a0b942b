export class NodeFilter {
    static get SHOW_ALL(): number;
    static get SHOW_ELEMENT(): number;
    static get SHOW_COMMENT(): number;
    static get SHOW_CDATA_SECTION(): number;
    static get SHOW_TEXT(): number;
}
