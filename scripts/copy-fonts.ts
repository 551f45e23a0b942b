import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { FONT_FAMILIES, fontFaceFiles } from '../src/services/agents/artifacts/fonts.js';
import { packageRoot } from '../src/util/package-root.js';

// Part of `npm run build`: the PDF renderer reads one weight (400) of each Noto Sans family as WOFF;
// the @fontsource packages ship every weight in two formats (141 MB). Those files alone go to
// dist/fonts (about 9 MB), which the package ships, so the packages are only development dependencies.
const require = createRequire(import.meta.url);
const out = path.join(packageRoot().dir, 'dist', 'fonts');
rmSync(out, { recursive: true, force: true });
let files = 0;
for (const { pkg, only } of FONT_FAMILIES) {
  const from = path.dirname(require.resolve(pkg));
  const to = path.join(out, pkg);
  mkdirSync(path.join(to, 'files'), { recursive: true });
  const css = readFileSync(path.join(from, 'index.css'), 'utf8');
  copyFileSync(path.join(from, 'index.css'), path.join(to, 'index.css'));
  copyFileSync(path.join(from, 'LICENSE'), path.join(to, 'LICENSE'));
  for (const { file } of fontFaceFiles(css, only)) {
    copyFileSync(path.join(from, 'files', `${file}.woff`), path.join(to, 'files', `${file}.woff`));
    files++;
  }
}
console.log(`fonts: ${files} files of the 400 weight copied to ${path.relative(process.cwd(), out)}`);
