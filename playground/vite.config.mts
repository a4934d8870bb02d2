import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The browser playground (issue #11): built with the project into dist/playground/page, then served as
 * static files by src/playground (no build server at run time). dist/playground itself holds the compiled
 * Nest module, so the page gets a folder of its own that `emptyOutDir` may wipe.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/playground/',
  // No `public/` folder: every file the page loads comes out of this build.
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../dist/playground/page', import.meta.url)),
    emptyOutDir: true,
    // No inline polyfill script: the page's Content-Security-Policy allows only same-origin scripts.
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
});
