export const shadowRoots: WeakMap<WeakKey, any>;
