import { Module } from '@nestjs/common';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MemoryReclaimer } from '../../src/common/memory-reclaimer';
import type { AppConfigOverrides } from '../../src/config/merge-config';
import { AguiGatewayModule, type AguiGatewayModuleExtras } from '../../src/index';
import { ScriptedA2aGateway } from '../support/fakes/scripted-a2a-gateway';
import { runInput } from '../support/run-input';
import { startModule } from '../support/start-gateway';
import { WsRunClient } from '../support/ws-client';

const gatewayModule = (
  extras: AguiGatewayModuleExtras = {},
  settings: { environment?: Record<string, string>; config?: AppConfigOverrides } = {},
) =>
  AguiGatewayModule.forRoot({
    environment: settings.environment ?? {},
    config: {
      stateDir: mkdtempSync(path.join(os.tmpdir(), 'agui-embed-')),
      allowedCwdRoots: [os.tmpdir()],
      ...settings.config,
    },
    a2aGateway: { useFactory: () => new ScriptedA2aGateway(['ok']) },
    ...extras,
  });

/** docs/embedding.md: the module's shape inside a host (WebSocket route, one import, shutdown warning). */
describe('AguiGatewayModule inside a host', () => {
  it('serves /ws at the path the host gives, and not at /ws', async () => {
    const host = await startModule([gatewayModule({ webSocket: { path: '/agents/iac/ws/' } })]);
    try {
      const client = await WsRunClient.open(`${host.url}agents/iac/`);
      try {
        client.send(runInput({ threadId: 'ws-moved' }));
        expect((await client.nextRun()).at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
      } finally {
        client.socket.terminate();
      }
      await expect(WsRunClient.open(host.url)).rejects.toThrow();
    } finally {
      await host.close();
    }
  });

  it('leaves /ws out with webSocket: false, while the HTTP routes work', async () => {
    const host = await startModule([gatewayModule({ webSocket: false })]);
    try {
      await expect(WsRunClient.open(host.url)).rejects.toThrow();
      const response = await fetch(host.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(runInput({ threadId: 'no-ws' })),
      });
      expect(response.status).toBe(200);
    } finally {
      await host.close();
    }
  });

  it('refuses to start with a second forRoot, naming what to do', async () => {
    @Module({ imports: [gatewayModule({ routePrefix: '/second' })] })
    class FeatureModule {}
    await expect(startModule([gatewayModule(), FeatureModule])).rejects.toThrow(
      /AguiGatewayModule is imported more than once .*import it once, at the application root/,
    );
  });

  it('warns at boot when no SIGTERM handler would start the drain', async () => {
    const host = await startModule([gatewayModule()]);
    try {
      expect(host.logs.map((line) => JSON.parse(line) as { level: number; msg: string })).toContainEqual(
        expect.objectContaining({ level: 40, msg: expect.stringContaining('app.enableShutdownHooks()') }),
      );
    } finally {
      await host.close();
    }
  });

  it('logs each deprecated setting once at boot, naming the old setting and the new', async () => {
    const host = await startModule([
      gatewayModule({}, { environment: { IAC_CODE_AGUI_THREAD_CACHE_SIZE: '100' } }),
    ]);
    try {
      const lines = host.logs.map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(lines.filter((line) => line.msg.includes('is deprecated'))).toEqual([
        expect.objectContaining({
          level: 40,
          msg: expect.stringMatching(
            /^IAC_CODE_AGUI_THREAD_CACHE_SIZE is deprecated.*IAC_CODE_AGUI_THREAD_CACHE_BYTES/,
          ),
        }),
      ]);
    } finally {
      await host.close();
    }
  });

  describe('in a process started with --expose-gc', () => {
    const global = globalThis as { gc?: unknown };
    // A context made while the flag was on has V8's own, which cannot be deleted: then it is left as it is.
    const hadGc = typeof global.gc === 'function';
    beforeEach(() => {
      if (!hadGc) global.gc = () => undefined;
    });
    afterEach(() => {
      if (!hadGc) delete global.gc;
    });

    it('runs no memory reclaimer unless the host asks for one', async () => {
      const host = await startModule([gatewayModule()]);
      try {
        expect(host.app.get(MemoryReclaimer, { strict: false })).toBeNull();
      } finally {
        await host.close();
      }
    });

    it('runs it when the host asks (memoryReclaimer: true), as the standalone service does', async () => {
      const host = await startModule([gatewayModule({}, { config: { memoryReclaimer: true } })]);
      try {
        expect(host.app.get(MemoryReclaimer, { strict: false })).toBeInstanceOf(MemoryReclaimer);
      } finally {
        await host.close();
      }
    });
  });
});
