import { createRequire } from 'node:module';

/**
 * js-yaml 3 arrives with the dev install (Jest's istanbul config loader depends on it), so the deploy tests
 * parse helm's output without a package of their own. Only the two loaders they need are typed here.
 */
const jsYaml = createRequire(__filename)('js-yaml') as {
  load(text: string): unknown;
  loadAll(text: string): unknown[];
};

/** Every non-empty document of a multi-document YAML stream (what `helm template` prints). */
export function parseYamlDocuments<T>(text: string): T[] {
  return jsYaml.loadAll(text).filter((document) => document !== null && document !== undefined) as T[];
}

export function parseYaml<T>(text: string): T {
  return jsYaml.load(text) as T;
}
