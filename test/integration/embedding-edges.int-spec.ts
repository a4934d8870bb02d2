import { Module } from '@nestjs/common';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AguiGatewayModule, type AguiGatewayModuleExtras } from '../../src/index';
import { ScriptedA2aGateway } from '../support/fakes/scripted-a2a-gateway';
import { runInput } from '../support/run-input';
import { startModule } from '../support/start-gateway';
import { WsRunClient } from '../support/ws-client';

const gatewayModule = (extras: AguiGatewayModuleExtras = {}) =>
  AguiGatewayModule.forRoot({
    environment: {},
    config: { stateDir: mkdtempSync(path.join(os.tmpdir(), 'agui-embed-')), allowedCwdRoots: [os.tmpdir()] },
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
});
