import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const SRC = path.resolve(__dirname, '..');

/**
 * The documented directions of docs/architecture.md#directions: what each folder of `src/` may import
 * (besides itself). Files at the root of `src/` (main.ts, app.module.ts, index.ts) compose everything.
 * A new folder must be placed here, which is where its direction is decided.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  config: [],
  i18n: [],
  // The client half: a library entry point of its own, importing no gateway code.
  client: [],
  common: ['config', 'i18n'],
  wire: ['common'],
  logging: ['config', 'common'],
  tracing: ['config', 'common'],
  auth: ['config', 'common'],
  'demo-kernel': ['common', 'wire', 'a2a'],
  events: ['common', 'i18n', 'wire'],
  interrupts: ['common', 'i18n', 'wire'],
  'run-input': ['config', 'common', 'i18n', 'logging', 'wire'],
  cors: ['config', 'common', 'logging'],
  metrics: ['config', 'common', 'auth', 'tracing'],
  a2a: ['config', 'common', 'wire', 'metrics'],
  threads: ['config', 'common', 'i18n', 'logging', 'wire', 'metrics', 'interrupts'],
  'run-log': ['config', 'common', 'i18n', 'wire', 'events', 'threads'],
  runs: [
    'config',
    'common',
    'i18n',
    'logging',
    'wire',
    'metrics',
    'a2a',
    'events',
    'interrupts',
    'run-input',
    'threads',
    'run-log',
  ],
  cancellation: ['config', 'common', 'i18n', 'wire', 'a2a', 'interrupts', 'threads'],
  health: ['config', 'common', 'a2a', 'threads'],
  playground: ['config', 'common'],
  testing: ['common', 'threads', 'demo-kernel'],
  http: [
    'config',
    'common',
    'i18n',
    'logging',
    'wire',
    'auth',
    'metrics',
    'run-input',
    'runs',
    'cancellation',
    'run-log',
  ],
  ws: ['config', 'common', 'i18n', 'logging', 'wire', 'auth', 'metrics', 'run-input', 'runs', 'run-log'],
  gateway: [
    'config',
    'common',
    'logging',
    'tracing',
    'cors',
    'metrics',
    'auth',
    'a2a',
    'threads',
    'runs',
    'health',
    'http',
    'ws',
  ],
};

/** Folders of pure code (docs/architecture.md#directions): no file system, network or process access. */
const PURE_FOLDERS = ['wire', 'events', 'interrupts', 'i18n'];
const IO_MODULES =
  /^(node:)?(fs|fs\/promises|net|http|https|http2|child_process|dgram|dns|tls|cluster|worker_threads|os|process|readline|vm)$/;

interface Import {
  readonly file: string;
  readonly specifier: string;
}

function productionFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return productionFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

/** Every import, re-export, `import()` and `require()` of a file, type-only ones included. */
function importsOf(file: string): Import[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((imported) => ({ file, specifier: imported.fileName }));
}

/** `src/<folder>/…` → folder; a file at the root of src/ → undefined. */
function folderOf(file: string): string | undefined {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts.length > 1 ? parts[0] : undefined;
}

type Edges = ReadonlyMap<string, ReadonlySet<string>>;

function folderEdges(imports: readonly Import[]): Map<string, Map<string, string[]>> {
  const edges = new Map<string, Map<string, string[]>>();
  for (const { file, specifier } of imports) {
    if (!specifier.startsWith('.')) continue;
    const from = folderOf(file);
    const to = folderOf(path.resolve(path.dirname(file), specifier));
    if (from === undefined || to === undefined || from === to) continue;
    const targets = edges.get(from) ?? new Map<string, string[]>();
    targets.set(to, [...(targets.get(to) ?? []), path.relative(SRC, file)]);
    edges.set(from, targets);
  }
  return edges;
}

/** File → the files of `src/` it imports (relative specifiers resolved as TypeScript does: `.ts`, `/index.ts`). */
function fileEdges(imports: readonly Import[]): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const { file, specifier } of imports) {
    if (!specifier.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), specifier);
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate));
    if (!target) continue;
    const from = path.relative(SRC, file);
    edges.set(from, (edges.get(from) ?? new Set<string>()).add(path.relative(SRC, target)));
  }
  return edges;
}

/** Folders on a cycle (Tarjan's strongly connected components of more than one node, or a self-loop). */
function cyclesOf(edges: Edges): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || edges.get(node)?.has(node)) components.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return components;
}

function allowedEdges(): Edges {
  return new Map(Object.entries(MAY_IMPORT).map(([folder, targets]) => [folder, new Set(targets)]));
}

describe('folder boundaries (docs/architecture.md#directions)', () => {
  const files = productionFiles(SRC);
  const imports = files.flatMap(importsOf);
  const edges = folderEdges(imports);

  it('reads the imports of the whole tree (the scan is not silently empty)', () => {
    expect(files.length).toBeGreaterThan(150);
    expect([...edges.keys()].length).toBeGreaterThan(15);
  });

  it('places every folder of src/ in the table of directions', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .filter((name) => productionFiles(path.join(SRC, name)).length > 0);
    expect(folders.filter((folder) => !(folder in MAY_IMPORT))).toEqual([]);
  });

  // With the next test (every import is in the table) this means the folder import graph has no cycle either.
  it('the documented directions themselves form no cycle', () => {
    expect(cyclesOf(allowedEdges())).toEqual([]);
  });

  // The folder table cannot see a cycle between two files of one folder; type-only imports count, as in madge.
  it('no two files of src/ import each other, directly or round a loop', () => {
    const graph = fileEdges(imports);
    expect([...graph.values()].reduce((sum, targets) => sum + targets.size, 0)).toBeGreaterThan(500);
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('imports only along the documented directions', () => {
    const offences = [...edges].flatMap(([from, targets]) =>
      [...targets]
        .filter(([to]) => !(MAY_IMPORT[from] ?? []).includes(to))
        .map(([to, byFiles]) => `${from} -> ${to} (${[...new Set(byFiles)].join(', ')})`),
    );
    expect(offences).toEqual([]);
  });

  it('nothing in src/ imports from test/ or bench/', () => {
    const outside = imports.filter(({ file, specifier }) => {
      if (!specifier.startsWith('.')) return false;
      const target = path.relative(SRC, path.resolve(path.dirname(file), specifier));
      return target.startsWith('..');
    });
    expect(outside.map(({ file, specifier }) => `${path.relative(SRC, file)}: ${specifier}`)).toEqual([]);
  });

  it.each(PURE_FOLDERS)('%s/ touches no file system, network or process', (folder) => {
    const io = imports.filter(
      ({ file, specifier }) => folderOf(file) === folder && IO_MODULES.test(specifier),
    );
    expect(io.map(({ file, specifier }) => `${path.relative(SRC, file)}: ${specifier}`)).toEqual([]);
  });

  it.each(PURE_FOLDERS)('%s/ reads no process globals', (folder) => {
    const readers = files.filter(
      (file) => folderOf(file) === folder && /\bprocess\.\w/.test(readFileSync(file, 'utf8')),
    );
    expect(readers.map((file) => path.relative(SRC, file))).toEqual([]);
  });

  it('no file of the run engine (runs/) is over 250 lines: a growing step becomes an object of its own', () => {
    const long = files
      .filter((file) => folderOf(file) === 'runs')
      .map((file) => [path.relative(SRC, file), readFileSync(file, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 250);
    expect(long).toEqual([]);
  });

  it('the cycle check finds a cycle and a self-loop (it can fail)', () => {
    const graph: Edges = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['d'])],
      ['e', new Set(['a'])],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c'], ['d']]);
  });
});
