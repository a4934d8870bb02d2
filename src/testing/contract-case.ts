/**
 * One case of a contract suite: a name and a body that rejects (a `node:assert` error) when the
 * implementation breaks the contract. Framework-neutral: register each with your runner, e.g.
 * `for (const c of cases) it(c.name, c.run)` (Jest, Vitest, Mocha) or `test(c.name, c.run)` (node:test).
 */
export interface ContractCase {
  readonly name: string;
  run(): Promise<void>;
}
