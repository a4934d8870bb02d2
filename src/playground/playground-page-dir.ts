import * as path from 'node:path';

/** Where the built page lives (token; tests point it at a page of their own). */
export const PLAYGROUND_PAGE_DIR = Symbol('PLAYGROUND_PAGE_DIR');

/**
 * `dist/playground/page` at the project root, where `vite build --config playground/vite.config.mts`
 * writes it. Resolved from this file like service-identity.ts resolves package.json, so it is the same
 * folder whether the code runs from src/ (tests) or dist/ (production).
 */
export function defaultPlaygroundPageDir(): string {
  return path.join(__dirname, '..', '..', 'dist', 'playground', 'page');
}
