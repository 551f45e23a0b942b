// https://dom.spec.whatwg.org/#interface-htmlcollection

// TODO