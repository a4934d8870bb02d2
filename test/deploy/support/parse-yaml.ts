import { load, loadAll } from 'js-yaml';

/** Every non-empty document of a multi-document YAML stream (what `helm template` prints). */
export function parseYamlDocuments<T>(text: string): T[] {
  return loadAll(text).filter((document) => document !== null && document !== undefined) as T[];
}

export function parseYaml<T>(text: string): T {
  return load(text) as T;
}
