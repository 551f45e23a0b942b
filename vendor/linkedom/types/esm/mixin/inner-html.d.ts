export function getInnerHtml(node: Node): string;
export function setInnerHtml(node: Node, html: string): void;
