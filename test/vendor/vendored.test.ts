import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseHTML } from '#linkedom';
import { readerDependencyChanges } from '../../src/services/reader/dependencies.js';
import { first, parseDocument } from '../../src/services/reader/dom.js';
import { toMarkdown } from '../../src/services/reader/markdown.js';
import { READABILITY_METHODS } from '../../src/services/reader/reader-readability.js';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  files: string[];
};

describe('dependencies: nothing is edited at install time', () => {
  it('has no install scripts, and ships the vendored copies', () => {
    for (const hook of ['preinstall', 'install', 'postinstall'])
      expect(packageJson.scripts[hook], hook).toBeUndefined();
    expect(packageJson.files).toContain('vendor');
  });

  it('pins exact versions of the packages whose internals the reader relies on, and of the vendored copies’ own dependencies', () => {
    for (const name of ['@mozilla/readability', 'turndown', '@acemir/cssom', 'css-select', 'htmlparser2', 'uhyphen'])
      expect(packageJson.dependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/);
    expect(packageJson.dependencies['linkedom']).toBeUndefined();
    expect(packageJson.dependencies['@joplin/turndown-plugin-gfm']).toBeUndefined();
  });
});

describe('vendor/linkedom: a node gets its listener map on its first listener', () => {
  it('makes no map at construction', () => {
    const source = readFileSync(
      new URL('../../vendor/linkedom/esm/interface/event-target.js', import.meta.url),
      'utf8',
    );
    expect(source).not.toContain('wm.set(this, new Map);\n  }');
  });

  it('listeners still work: added, bubbled, once, removed, and absent on nodes that never had one', () => {
    const { document, Event: PageEvent } = parseHTML(
      '<html><body><div id="outer"><p id="inner">x</p></div></body></html>',
    );
    const outer = document.getElementById('outer')!;
    const inner = document.getElementById('inner')!;
    const seen: string[] = [];
    const onOuter = (event: Event) => seen.push(`outer<-${(event.target as Element).id}`);
    outer.addEventListener('ping', onOuter);
    inner.addEventListener('ping', () => seen.push('inner'), { once: true });
    expect(inner.dispatchEvent(new PageEvent('ping', { bubbles: true }))).toBe(true);
    expect(inner.dispatchEvent(new PageEvent('ping', { bubbles: true }))).toBe(true);
    expect(seen).toEqual(['inner', 'outer<-inner', 'outer<-inner']);
    outer.removeEventListener('ping', onOuter);
    inner.dispatchEvent(new PageEvent('ping', { bubbles: true }));
    expect(seen).toHaveLength(3);
    const never = document.createElement('span');
    expect(() => never.removeEventListener('ping', onOuter)).not.toThrow();
    expect(never.dispatchEvent(new PageEvent('ping'))).toBe(true);
  });
});

describe("vendor/turndown-plugin-gfm: a node's child list is read once", () => {
  it('turns a plain table into a pipe table, and keeps a table holding a list as HTML (its block test)', () => {
    const convert = (html: string) => toMarkdown(html, { gfm: true });
    expect(convert('<table><tr><th>a</th></tr><tr><td><ul><li>x</li></ul></td></tr></table>')).toContain(
      '<ul><li>x</li></ul>',
    );
  });

  it('reads childNodes once per node in its table tests', () => {
    const source = readFileSync(
      new URL('../../vendor/turndown-plugin-gfm/turndown-plugin-gfm.cjs', import.meta.url),
      'utf8',
    );
    expect(source).not.toContain('for (let i = 0; i < node.childNodes.length; i++)');
    // nodeContainsTable, nodeContains and ownRows.
    expect(source.split('const children = node.childNodes;')).toHaveLength(4);
  });
});

describe("vendor/turndown-plugin-gfm: a table's rows are found once per table", () => {
  const article = (html: string) =>
    first(parseDocument(`<html><body><article>${html}</article></body></html>`), 'article')!;

  it('turns a linkedom table (which has no `rows`) into a pipe table, without adding `rows` to linkedom', () => {
    const root = article(
      '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></tbody></table>',
    );
    const table = first(root, 'table') as object;
    expect('rows' in table).toBe(false);
    expect(toMarkdown(root, { gfm: true })).toBe('| a   | b   |\n| --- | --- |\n| 1   | 2   |\n| 3   | 4   |');
    expect('rows' in table).toBe(false);
  });

  it("counts a table's own rows, not those of a table nested in one of its cells", () => {
    // A table holding a table runs its cells as paragraphs (the plugin's rule) and the inner one is
    // a table of its own; counted with the outer one, its rows would give it a second header row.
    const nested = article(
      '<table><tr><td><table><tr><td>x</td><td>y</td></tr><tr><td>z</td></tr></table></td></tr></table>',
    );
    expect(toMarkdown(nested, { gfm: true })).toBe('|     |     |\n| --- | --- |\n| x   | y   |\n| z   |');
    const beside = article(
      '<table><tr><th>h</th><th>i</th></tr><tr><td>only</td><td><table><tr><td>n</td></tr></table></td></tr></table><p>after</p><table><tr><td>solo</td></tr></table>',
    );
    expect(toMarkdown(beside, { gfm: true })).toBe('hionlyn\n\nafter\n\nsolo');
  });

  it('reads `rows` only in its one helper', () => {
    const source = readFileSync(
      new URL('../../vendor/turndown-plugin-gfm/turndown-plugin-gfm.cjs', import.meta.url),
      'utf8',
    );
    expect(source.match(/\.rows\b/g)).toEqual(['.rows']);
    expect(source).toContain('tableNode.rows || ownRows(tableNode, [])');
  });
});

describe('readerDependencyChanges: what serve logs as in effect', () => {
  it('lists both vendored copies and Readability’s replaced methods, all in effect with the pinned versions', () => {
    const changes = readerDependencyChanges();
    expect(changes.map((change) => [change.name, change.how, change.inEffect])).toEqual([
      ['linkedom', 'vendored', true],
      ['@joplin/turndown-plugin-gfm', 'vendored', true],
      ['@mozilla/readability', 'subclass', true],
    ]);
    const readability = changes.find((change) => change.name === '@mozilla/readability');
    expect(readability?.version).toBe(packageJson.dependencies['@mozilla/readability']);
    for (const method of READABILITY_METHODS) expect(readability?.change).toContain(method);
  });
});
