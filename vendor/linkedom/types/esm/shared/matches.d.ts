export function prepareMatch(element: any, selectors: any): import("../../node_modules/css-select/dist/types.js").CompiledQuery<any>;
export function matches(element: any, selectors: any): boolean;
