import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packLibrary } from '../support/pack-library';

const REPO = path.resolve(__dirname, '../..');
const NODE = process.execPath;
const TSC = path.join(REPO, 'node_modules/typescript/bin/tsc');

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A consumer's source: the documented entry point, typed. The @ts-expect-error lines fail if types were `any`. */
const CONSUMER_SOURCE = `
import { Module } from '@nestjs/common';
import {
  AguiGatewayModule,
  ErrorCode,
  THREAD_STORE,
  type AguiGatewayOptions,
  type RequestAuthenticator,
  type RunEventHook,
} from 'agui-a2a-gateway';

const authenticator: RequestAuthenticator = {
  authenticate: (request) => ({ isAllowed: request.headers['x-user-id'] !== undefined }),
};
const hook: RunEventHook = { onRunEnd: (report, run) => void [report.outcome, run.threadId] };
const options: AguiGatewayOptions = {
  environment: {},
  authenticator: { useValue: authenticator },
  eventHooks: [{ useValue: hook }],
};

@Module({ imports: [AguiGatewayModule.forRoot({ ...options, routePrefix: '/agents/iac' })] })
export class HostModule {}

export const code: ErrorCode = ErrorCode.THREAD_BUSY;
export const token: symbol = THREAD_STORE;
// @ts-expect-error: forRoot takes options, not a string
AguiGatewayModule.forRoot('nope');
// @ts-expect-error: an authenticator decides with isAllowed
export const wrong: RequestAuthenticator = { authenticate: () => ({ allowed: true }) };
`;

/**
 * `npm pack` of the project as a library : the lib build and package.json of this checkout, packed,
 * unpacked into a fresh project whose peers (Nest, rxjs) come from this repo's node_modules, then
 * type-checked with the repo's TypeScript and loaded with Node.
 */
describe('the packed package', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'agui-pack-'));
  const consumer = path.join(work, 'consumer');
  let tarballEntries: string[];

  beforeAll(() => {
    const packed = packLibrary(work);
    tarballEntries = packed.files;

    const modules = path.join(consumer, 'node_modules');
    mkdirSync(modules, { recursive: true });
    run('tar', ['-xzf', packed.tarball, '-C', modules], work);
    renameSync(path.join(modules, 'package'), path.join(modules, 'agui-a2a-gateway'));
    for (const entry of readdirSync(path.join(REPO, 'node_modules'))) {
      if (entry === '.bin' || entry.startsWith('.')) continue;
      symlinkSync(path.join(REPO, 'node_modules', entry), path.join(modules, entry));
    }
    writeFileSync(path.join(consumer, 'host.ts'), CONSUMER_SOURCE);
    writeFileSync(path.join(consumer, 'host.mts'), CONSUMER_SOURCE);
  }, 180_000);

  it('ships the compiled entry point with its types, and no specs or sources', () => {
    expect(tarballEntries).toEqual(
      expect.arrayContaining([
        'package.json',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/gateway/agui-gateway.module.d.ts',
        'dist/testing/index.js',
        'dist/testing/index.d.ts',
        'dist/client/index.js',
        'dist/client/esm/index.js',
        'dist/client/esm/package.json',
        // What the type comments cite, and the licence.
        'LICENSE',
        'README.md',
        'CONTRIBUTING.md',
        'docs/embedding.md',
        'docs/behaviour/state.md',
      ]),
    );
    expect(tarballEntries.filter((entry) => entry.startsWith('docs/') && !entry.endsWith('.md'))).toEqual([]);
    // The scripted kernel of the testing entry, not the demo service's entry point.
    expect(tarballEntries).toContain('dist/demo-kernel/kernel-server.js');
    expect(tarballEntries.filter((entry) => /demo-main|with-demo-kernel/.test(entry))).toEqual([]);
    expect(
      tarballEntries.filter((entry) => /\.spec\.|\.ts$/.test(entry) && !entry.endsWith('.d.ts')),
    ).toEqual([]);
  });

  // Node 24 may require() an ES module (Nest 12 is ESM-only): TypeScript's `node20` mode knows that, `node16` does not.
  it.each([
    {
      name: 'a CommonJS consumer, package.json "exports"',
      file: 'host.ts',
      module: 'node20',
      moduleResolution: 'node16',
    },
    {
      name: 'an ESM consumer, package.json "exports"',
      file: 'host.mts',
      module: 'node20',
      moduleResolution: 'node16',
    },
    {
      name: 'a CommonJS consumer, "main"/"types"',
      file: 'host.ts',
      module: 'commonjs',
      moduleResolution: 'node10',
    },
  ])(
    'resolves `import { AguiGatewayModule } from "agui-a2a-gateway"` for $name',
    ({ file, module, moduleResolution }) => {
      const tsconfig = `tsconfig.${file}.${moduleResolution}.json`;
      writeFileSync(
        path.join(consumer, tsconfig),
        JSON.stringify({
          compilerOptions: {
            module,
            moduleResolution,
            target: 'ES2023',
            strict: true,
            noEmit: true,
            experimentalDecorators: true,
            skipLibCheck: true,
            ignoreDeprecations: '6.0',
            types: ['node'],
          },
          files: [file],
        }),
      );
      let output = '';
      try {
        run(NODE, [TSC, '-p', tsconfig], consumer);
      } catch (error) {
        output =
          String((error as { stdout?: string }).stdout) + String((error as { stderr?: string }).stderr);
      }
      expect(output).toBe('');
    },
    120_000,
  );

  // Two copies of @ag-ui/client (the app's ESM build, the client's CommonJS one) would make this false.
  it.each([
    {
      name: 'an ESM consumer (import)',
      file: 'client-probe.mjs',
      source: `import { HttpAgent } from '@ag-ui/client';\nimport { ReattachingHttpAgent } from 'agui-a2a-gateway/client';\nconsole.log(new ReattachingHttpAgent({ url: 'http://gateway.test/' }) instanceof HttpAgent);\n`,
    },
    {
      name: 'a CommonJS consumer (require)',
      file: 'client-probe.cjs',
      source: `const { HttpAgent } = require('@ag-ui/client');\nconst { ReattachingHttpAgent } = require('agui-a2a-gateway/client');\nconsole.log(new ReattachingHttpAgent({ url: 'http://gateway.test/' }) instanceof HttpAgent);\n`,
    },
  ])(
    "the client shares the app's @ag-ui/client in $name: instanceof HttpAgent",
    ({ file, source }) => {
      writeFileSync(path.join(consumer, file), source);
      expect(run(NODE, [file], consumer).trim()).toBe('true');
    },
    60_000,
  );

  it("the main entry loads none of the testing entry's scripted kernel", () => {
    const probe = `require('agui-a2a-gateway'); console.log(Object.keys(require.cache).filter((f) => /demo-kernel|testing/.test(f)).length);`;
    expect(run(NODE, ['-e', probe], consumer).trim()).toBe('0');
  }, 60_000);

  it('loads at runtime from the package name', () => {
    const probe = `const g = require('agui-a2a-gateway'); console.log(typeof g.AguiGatewayModule.forRoot, g.ErrorCode.THREAD_BUSY);`;
    expect(run(NODE, ['-e', probe], consumer).trim()).toBe('function THREAD_BUSY');
    const testing = `const t = require('agui-a2a-gateway/testing'); console.log(typeof t.threadStoreContractCases, typeof t.threadClusterContractCases, typeof t.startScriptedKernel);`;
    expect(run(NODE, ['-e', testing], consumer).trim()).toBe('function function function');
  }, 60_000);
});
