import { enableCompileCache } from 'node:module';

// Imported first by main.ts, so that every module loaded after it is compiled from V8's code cache on the next
// start instead of from source (docs/benchmarks.md: cold start). The directory is NODE_COMPILE_CACHE when set
// (the image sets one, warmed at build time), else `<tmpdir>/node-compile-cache`; a directory that cannot be
// written is only not updated, so this never stops a start.
enableCompileCache();
