export function attrAsJSON(attr: any, json: any): void;
export function characterDataAsJSON(node: any, json: any): void;
export function nonElementAsJSON(node: any, json: any): void;
export function documentTypeAsJSON({ name, publicId, systemId }: {
    name: any;
    publicId: any;
    systemId: any;
}, json: any): void;
export function elementAsJSON(element: any, json: any): void;
