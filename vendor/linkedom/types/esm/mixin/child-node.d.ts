export function before(node: any, nodes: any): void;
export function after(node: any, nodes: any): void;
export function replaceWith(node: any, nodes: any): void;
export function remove(prev: any, current: any, next: any): void;
