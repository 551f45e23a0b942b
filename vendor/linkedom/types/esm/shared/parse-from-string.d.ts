export function isNotParsing(): boolean;
export function parseFromString(document: any, isHTML: any, markupLanguage: any): any;
