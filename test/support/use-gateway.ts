import * as os from 'node:os';
import type { TestingModuleBuilder } from '@nestjs/testing';
import { startGateway, type RunningGateway } from './start-gateway';
import {
  startKernelUpstream,
  type KernelUpstream,
  type KernelUpstreamOptions,
} from './start-kernel-upstream';

type GatewayEnv = Record<string, string | undefined>;
type Configure = (builder: TestingModuleBuilder) => TestingModuleBuilder;

export interface UseGatewayOptions {
  /**
   * Starts the scripted kernel (its own process) before the block's tests and stops it after them. The
   * gateway's environment then names it (`IAC_CODE_AGUI_A2A_URL`) and allows the temp dir as a workspace.
   */
  readonly upstream?: true | KernelUpstreamOptions;
  /** Settings of every gateway of the block, over the upstream's; a function is read at each start. */
  readonly env?: GatewayEnv | ((setup: { readonly upstream: KernelUpstream }) => GatewayEnv);
  /** Provider overrides of every gateway of the block (see startGateway). */
  readonly configure?: Configure;
  /** `false`: no gateway before the tests; each test starts its own with `start()`. Default `true`. */
  readonly startBeforeAll?: boolean;
}

/**
 * The block's gateway (`url`, `app`, `logs`, as startGateway returns them) and its upstream. Read them inside
 * hooks and tests only: they exist once the block's `beforeAll` has run.
 */
export interface GatewaySetup extends RunningGateway {
  readonly upstream: KernelUpstream;
  /**
   * One more gateway with the block's settings and `env` over them. Started inside a test (or a
   * `beforeEach` declared after useGateway), it is closed after that test; started in a `beforeAll`, after
   * the block.
   */
  start(env?: GatewayEnv, configure?: Configure): Promise<RunningGateway>;
}

/**
 * Registers the setup every integration file repeats: a scripted kernel and a real gateway on port 0 before
 * the tests of the enclosing block, closed after them (and the gateways a test started, after that test),
 * so no test file writes its own teardown.
 */
export function useGateway(options: UseGatewayOptions = {}): GatewaySetup {
  let upstream: KernelUpstream | undefined;
  let main: RunningGateway | undefined;
  const forBlock: RunningGateway[] = [];
  const forTest: RunningGateway[] = [];
  let isInTest = false;

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useGateway: no ${what} yet (read it inside a hook or a test)`);
    return value;
  };
  const envOf = (extra: GatewayEnv): GatewayEnv => ({
    ...(upstream ? { IAC_CODE_AGUI_A2A_URL: upstream.url, IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir() } : {}),
    ...(typeof options.env === 'function' ? options.env(handle) : options.env),
    ...extra,
  });
  const start = async (extra: GatewayEnv = {}, configure = options.configure) => {
    const gateway = await startGateway(envOf(extra), configure);
    (isInTest ? forTest : forBlock).push(gateway);
    return gateway;
  };
  const closeAll = (gateways: RunningGateway[]) => Promise.all(gateways.map((gateway) => gateway.close()));

  beforeAll(async () => {
    if (options.upstream)
      upstream = await startKernelUpstream(options.upstream === true ? {} : options.upstream);
    if (options.startBeforeAll !== false) main = await start();
  });
  beforeEach(() => {
    isInTest = true;
  });
  afterEach(async () => {
    isInTest = false;
    await closeAll(forTest.splice(0));
  });
  afterAll(async () => {
    await closeAll(forBlock.splice(0));
    await upstream?.close();
  });

  const handle: GatewaySetup = {
    get url() {
      return started(main, 'gateway').url;
    },
    get app() {
      return started(main, 'gateway').app;
    },
    get logs() {
      return started(main, 'gateway').logs;
    },
    get upstream() {
      return started(upstream, 'upstream');
    },
    close: () => started(main, 'gateway').close(),
    start,
  };
  return handle;
}
