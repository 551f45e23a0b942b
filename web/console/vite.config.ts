import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The console is served by the server at /console from dist/console; everything is bundled (no CDN).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No inline data: URLs for assets, so the page's CSP can stay strict.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
