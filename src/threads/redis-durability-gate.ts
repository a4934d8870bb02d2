import type { Logger } from '@nestjs/common';
import { ReplyError, type Redis } from 'ioredis';
import { ConfigError } from '../config/load-config';
import { ThreadStoreNotReadyError } from './thread-store';
import { judgeRedisDurability, type RedisDurabilitySettings } from './redis-durability';

/** What the last check that got an answer concluded; `unchecked` until one did. */
type GateState =
  | { readonly kind: 'unchecked' }
  /** Durable, or CONFIG refused (`unverifiable`), or volatile with the override (`flagged`). */
  | { readonly kind: 'passed'; readonly verdict: 'durable' | 'unverifiable' | 'flagged' }
  | { readonly kind: 'refused'; readonly problems: readonly string[] };

const OVERRIDE = 'IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE';

/**
 * The durability check of docs/behaviour/state.md#redis-durability, run at boot and again at every (re)connect
 * (a Redis may come up after the replica, or restart with other settings). Until a check has passed the
 * replica is not ready and the store admits nothing; a volatile Redis met after boot is refused the same way
 * (not ready, nothing admitted) unless `allowVolatile`, which flags it. Each change of verdict is logged once.
 */
export class RedisDurabilityGate {
  private state: GateState = { kind: 'unchecked' };
  private checking?: Promise<GateState>;
  /** While the boot check runs: its refusal is the ConfigError the start fails with, not a log line. */
  private isBooting = false;

  constructor(
    private readonly readSettings: () => Promise<RedisDurabilitySettings>,
    private readonly allowVolatile: boolean,
    private readonly logger: Logger,
  ) {}

  /**
   * The boot check: a volatile Redis stops the start (ConfigError) unless `allowVolatile`; a Redis that does
   * not answer yet is logged, and the replica starts not ready until a later check passes.
   */
  async checkAtBoot(logText: (error: unknown) => string): Promise<void> {
    let state: GateState;
    this.isBooting = true;
    try {
      state = await this.check();
    } catch (error) {
      this.logger.warn({
        msg: 'Redis durability not checked yet: Redis does not answer; not ready until it does and the check passes',
        error: logText(error),
      });
      return;
    } finally {
      this.isBooting = false;
    }
    if (state.kind === 'refused') {
      throw new ConfigError(
        `IAC_CODE_AGUI_REDIS_URL: Redis would lose announced interrupts (${state.problems.join('; ')}). Run it with appendonly yes and maxmemory-policy noeviction, or set ${OVERRIDE}=true to start anyway.`,
      );
    }
  }

  /** Runs a check (one at a time; callers share it). Rejects when Redis did not answer: the state stays. */
  check(): Promise<GateState> {
    this.checking ??= this.readSettings()
      .then((settings) => this.conclude(settings))
      .finally(() => (this.checking = undefined));
    return this.checking;
  }

  /**
   * Resolves once a check has passed; else checks (sharing one in flight) and rejects ThreadStoreNotReadyError
   * with the reason readiness reports.
   */
  async admit(): Promise<void> {
    if (this.state.kind === 'passed') return;
    if (this.state.kind === 'unchecked') await this.check().catch(() => undefined);
    const state = this.state as GateState;
    if (state.kind === 'passed') return;
    throw new ThreadStoreNotReadyError(
      state.kind === 'refused'
        ? `Redis is not durable (${state.problems.join('; ')})`
        : 'Redis durability not checked yet (Redis does not answer)',
    );
  }

  private conclude(settings: RedisDurabilitySettings): GateState {
    const verdict = judgeRedisDurability(settings);
    const next: GateState =
      verdict.kind === 'volatile'
        ? this.allowVolatile
          ? { kind: 'passed', verdict: 'flagged' }
          : { kind: 'refused', problems: verdict.problems }
        : { kind: 'passed', verdict: verdict.kind };
    const previous = this.state;
    this.state = next;
    if (sameState(previous, next)) return next;
    if (next.kind === 'refused') {
      if (!this.isBooting)
        this.logger.error({
          msg: `Redis is not durable: this replica admits no run and is not ready until it is (or ${OVERRIDE}=true)`,
          problems: next.problems,
        });
    } else if (next.verdict === 'flagged') {
      this.logger.warn({
        msg: `Redis is not durable: a Redis restart or eviction loses announced interrupts and run leases (${OVERRIDE}=true)`,
        problems: verdict.kind === 'volatile' ? verdict.problems : [],
      });
    } else if (next.verdict === 'unverifiable') {
      this.logger.warn({
        msg: 'Redis durability not checked: the server refuses CONFIG GET; it must run with appendonly yes and maxmemory-policy noeviction',
      });
    } else if (!this.isBooting) {
      this.logger.log({ msg: 'Redis durability checked: appendonly yes, maxmemory-policy noeviction' });
    }
    return next;
  }
}

function sameState(a: GateState, b: GateState): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `CONFIG GET` of the two settings; an error reply (CONFIG renamed or not allowed) leaves a setting unknown. */
export async function readDurabilitySettings(client: Redis): Promise<RedisDurabilitySettings> {
  const setting = async (name: string): Promise<string | undefined> => {
    try {
      const reply = (await client.config('GET', name)) as string[];
      return reply[1];
    } catch (error) {
      if (error instanceof ReplyError) return undefined;
      throw error;
    }
  };
  const [appendonly, maxmemoryPolicy] = await Promise.all([
    setting('appendonly'),
    setting('maxmemory-policy'),
  ]);
  return {
    ...(appendonly === undefined ? {} : { appendonly }),
    ...(maxmemoryPolicy === undefined ? {} : { maxmemoryPolicy }),
  };
}
