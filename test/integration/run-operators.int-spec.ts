import type { BaseEvent } from '@ag-ui/core';
import type { DynamicModule, Type } from '@nestjs/common';
import { readFileSync, mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { AguiGatewayModule } from '../../src/gateway/agui-gateway.module';
import type { AguiGatewayOptions } from '../../src/gateway/agui-gateway-options';
import * as gatewayPackage from '../../src/index';
import { InMemoryThreadStore } from '../support/fakes/in-memory-thread-store';
import { ScriptedA2aGateway } from '../support/fakes/scripted-a2a-gateway';
import { runInput } from '../support/run-input';
import { postRun } from '../support/sse-client';
import { startModule, type RunningGateway } from '../support/start-gateway';
import { WsRunClient } from '../support/ws-client';

const REPO = path.resolve(__dirname, '../..');

/** The TypeScript block of docs/extending.md#run-operators, as a reader copies it (its list indent removed). */
function documentedOperators(): string {
  const page = readFileSync(path.join(REPO, 'docs/extending.md'), 'utf8');
  const section = page.slice(page.indexOf('<a id="run-operators"></a>'));
  const block = /^( *)```ts\n([\s\S]*?)^\1```$/m.exec(section);
  if (!block) throw new Error('docs/extending.md#run-operators has no ts block');
  const indent = block[1];
  return block[2]
    .split('\n')
    .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
    .join('\n');
}

/**
 * Runs the documented block as a module: compiled as it stands, its `agui-a2a-gateway` import answered by
 * the package's public API, with `forRoot` given the test's settings as "the host's other options".
 */
function loadDocumentedHost(hostOptions: AguiGatewayOptions): Type {
  const { outputText } = ts.transpileModule(documentedOperators(), {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2023,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      esModuleInterop: true,
    },
  });
  const asHost = {
    ...gatewayPackage,
    AguiGatewayModule: {
      forRoot: (options: AguiGatewayOptions): DynamicModule =>
        AguiGatewayModule.forRoot({ ...hostOptions, ...options }),
    },
  };
  // Jest's require: the block shares this test's rxjs and Nest, as a host's code shares its own.
  const load = (name: string): unknown =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a name the documented block imports
    name === 'agui-a2a-gateway' ? asHost : (require(name) as unknown);
  const module = { exports: {} as { HostModule?: Type } };
  new Function('exports', 'require', 'module', outputText)(module.exports, load, module);
  if (!module.exports.HostModule) throw new Error('the documented block exports no HostModule');
  return module.exports.HostModule;
}

/**
 * The host's run operators as docs/extending.md#run-operators registers them (a redaction `map`, then an
 * audit `tap`, given to `AguiGatewayModule.forRoot`), applied to every run's events on SSE and on /ws alike.
 */
describe('run operators (docs/extending.md#run-operators, AguiGatewayModule option eventOperators)', () => {
  let gateway: RunningGateway;
  let audited: string[];

  beforeAll(async () => {
    const host = loadDocumentedHost({
      environment: {},
      config: {
        stateDir: mkdtempSync(path.join(os.tmpdir(), 'agui-ops-')),
        allowedCwdRoots: [os.tmpdir()],
      },
      threadStore: { useValue: new InMemoryThreadStore() },
      a2aGateway: { useValue: new ScriptedA2aGateway(['card 4111 1111 1111 1111 ', 'is on file.']) },
    });
    gateway = await startModule([host]);
  });
  beforeEach(() => {
    audited = [];
    jest.spyOn(console, 'log').mockImplementation((line: string) => audited.push(line));
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => gateway.close());

  const deltasOf = (events: BaseEvent[]) =>
    events
      .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
      .map((event) => (event as BaseEvent & { delta: string }).delta)
      .join('');
  const auditOf = (events: BaseEvent[]) => events.map((event) => `audit: ${event.type}`);

  it('redacts and audits every event of an SSE run', async () => {
    const response = await postRun(gateway.url, runInput({ threadId: 'ops-sse' }));
    expect(response.status).toBe(200);
    expect(deltasOf(response.events)).toBe('card [card] is on file.');
    expect(audited).toEqual(auditOf(response.events));
    expect(audited.at(-1)).toBe('audit: RUN_FINISHED');
  });

  it('does the same on /ws', async () => {
    const client = await WsRunClient.open(gateway.url);
    try {
      client.send(runInput({ threadId: 'ops-ws' }));
      const events = await client.nextRun();
      expect(deltasOf(events)).toBe('card [card] is on file.');
      expect(audited).toEqual(auditOf(events));
    } finally {
      client.socket.terminate();
    }
  });
});
