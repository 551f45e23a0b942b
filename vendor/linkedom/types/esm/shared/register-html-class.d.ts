export const htmlClasses: Map<any, any>;
export function registerHTMLClass(names: any, Class: any): void;
