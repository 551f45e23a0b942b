import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseHTML } from 'linkedom';
import { describe, expect, it, vi } from 'vitest';
// @ts-expect-error: a plain .mjs script run by npm (postinstall), without types
import { patches, patchInstalled, patchText } from '../../scripts/patch-dependencies.mjs';

type Edit = [string, string];
interface Patch {
  pkg: string;
  files: string[];
  edits: Edit[];
}
const [listeners, gfmChildLists] = patches as Patch[];
const linkedomDir = path.dirname(createRequire(import.meta.url).resolve('linkedom/package.json'));

/** linkedom 0.18.14's event-target.js as published, rebuilt from the patched file. */
const original = (patched: string) =>
  listeners!.edits.reduce((text, [from, to]) => text.replace(to, () => from), patched);

describe('scripts/patch-dependencies.mjs: linkedom makes a node its listener map on the first listener', () => {
  it('is applied to the installed linkedom, ESM and CommonJS (npm ci ran it)', () => {
    for (const file of listeners!.files) {
      const text = readFileSync(path.join(linkedomDir, file), 'utf8');
      expect(patchText(text, listeners!.edits).state, file).toBe('already');
      expect(text, file).not.toContain('wm.set(this, new Map);\n  }');
    }
  });

  it('patches the published text once, leaves patched text alone and reports a text it does not know', () => {
    const published = original(readFileSync(path.join(linkedomDir, listeners!.files[0]!), 'utf8'));
    expect(published).toContain('  constructor() {\n    wm.set(this, new Map);\n  }');
    const once = patchText(published, listeners!.edits);
    expect(once.state).toBe('patched');
    expect(patchText(once.text, listeners!.edits)).toEqual({ state: 'already', text: once.text });
    const other = published.replace('wm.set(this, new Map);', 'this._listeners = new Map;');
    expect(patchText(other, listeners!.edits)).toEqual({ state: 'unknown', text: other });
  });

  it('writes only files it knows, and warns about the others', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gp-patch-'));
    try {
      const published = original(readFileSync(path.join(linkedomDir, listeners!.files[0]!), 'utf8'));
      mkdirSync(path.join(dir, 'esm/interface'), { recursive: true });
      mkdirSync(path.join(dir, 'cjs/interface'), { recursive: true });
      writeFileSync(path.join(dir, listeners!.files[0]!), published);
      writeFileSync(path.join(dir, listeners!.files[1]!), 'module.exports = {};\n');
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      patchInstalled(listeners, dir);
      expect(warn).toHaveBeenCalledOnce();
      expect(String(warn.mock.calls[0]![0])).toContain(`linkedom/${listeners!.files[1]}`);
      warn.mockRestore();
      expect(patchText(readFileSync(path.join(dir, listeners!.files[0]!), 'utf8'), listeners!.edits).state).toBe(
        'already',
      );
      expect(readFileSync(path.join(dir, listeners!.files[1]!), 'utf8')).toBe('module.exports = {};\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('warns, and does not throw, when a file cannot be written (the install must not fail for it)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gp-patch-'));
    try {
      const published = original(readFileSync(path.join(linkedomDir, listeners!.files[0]!), 'utf8'));
      const file = path.join(dir, listeners!.files[0]!);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, published);
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const readOnly = () => {
        throw new Error('EROFS: read-only file system');
      };
      expect(() => patchInstalled(listeners, dir, readOnly)).not.toThrow();
      expect(String(warn.mock.calls[0]?.[0])).toContain('could not be patched (EROFS');
      warn.mockRestore();
      expect(readFileSync(file, 'utf8')).toBe(published);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

describe("scripts/patch-dependencies.mjs: the GFM plugin reads a node's child list once", () => {
  const gfmDir = path.dirname(createRequire(import.meta.url).resolve('@joplin/turndown-plugin-gfm/package.json'));
  const file = path.join(gfmDir, gfmChildLists!.files[0]!);
  const published = (patched: string) =>
    gfmChildLists!.edits.reduce((text, [from, to]) => text.replace(to, () => from), patched);

  it('is applied to the installed plugin (npm ci ran it)', () => {
    const text = readFileSync(file, 'utf8');
    expect(patchText(text, gfmChildLists!.edits).state).toBe('already');
    expect(text).not.toContain('for (let i = 0; i < node.childNodes.length; i++)');
  });

  it('patches the published text once and leaves patched text alone', () => {
    const text = published(readFileSync(file, 'utf8'));
    expect(text.split('for (let i = 0; i < node.childNodes.length; i++)')).toHaveLength(3);
    const once = patchText(text, gfmChildLists!.edits);
    expect(once.state).toBe('patched');
    expect(patchText(once.text, gfmChildLists!.edits)).toEqual({ state: 'already', text: once.text });
  });
});
