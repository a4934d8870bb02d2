import { AssertionError } from 'node:assert/strict';

/**
 * One case of a contract suite: a name and a body that rejects (a `node:assert` error) when the
 * implementation breaks the contract. Framework-neutral: register each with your runner, e.g.
 * `for (const c of cases) it(c.name, c.run, c.timeoutMs + 5_000)` (Jest, Vitest, Mocha) or
 * `test(c.name, c.run)` (node:test).
 */
export interface ContractCase {
  readonly name: string;
  /** Rejects by itself once `timeoutMs` has passed without an answer: a hanging implementation fails. */
  run(): Promise<void>;
  readonly timeoutMs: number;
}

/** How long one case may take by default: far above what any working store needs, so only a hang reaches it. */
export const CONTRACT_CASE_TIMEOUT_MS = 20_000;

export interface ContractSuiteOptions {
  /** Each case's bound; default CONTRACT_CASE_TIMEOUT_MS. */
  readonly timeoutMs?: number;
}

/** A case as a suite writes it, before it is bounded. */
export interface UnboundedCase {
  readonly name: string;
  run(): Promise<void>;
}

/** Each case failing once its bound passes without its body (set-up and clean-up included) settling. */
export function boundedCases(cases: readonly UnboundedCase[], options: ContractSuiteOptions): ContractCase[] {
  const timeoutMs = options.timeoutMs ?? CONTRACT_CASE_TIMEOUT_MS;
  return cases.map(({ name, run: body }) => ({
    name,
    timeoutMs,
    run: () => {
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new AssertionError({ message: `"${name}" did not settle within ${timeoutMs} ms` })),
          timeoutMs,
        );
      });
      return Promise.race([body(), expired]).finally(() => clearTimeout(timer));
    },
  }));
}
