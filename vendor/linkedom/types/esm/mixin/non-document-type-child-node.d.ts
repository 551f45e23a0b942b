export function nextElementSibling(node: any): any;
export function previousElementSibling(node: any): any;
