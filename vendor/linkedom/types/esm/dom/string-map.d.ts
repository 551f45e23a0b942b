/**
 * @implements globalThis.DOMStringMap
 */
export class DOMStringMap implements globalThis.DOMStringMap {
    /**
     * @param {Element} ref
     */
    constructor(ref: Element);
}
