export class NonElementParentNode extends ParentNode {
    getElementById(id: any): any;
    cloneNode(deep: any): any;
    toJSON(): any[];
}
import { ParentNode } from './parent-node.js';
