import type { ThreadCluster, ThreadClusterLock } from '../threads/thread-cluster';
import { SharedThreadSpace } from '../../test/support/fakes/shared-thread-space';
import { CONTRACT_CASE_TIMEOUT_MS, type ContractCase } from './contract-case';
import { threadClusterContractCases, type ThreadClusterUnderTest } from './thread-cluster-contract';

const CANCEL_CASE = 'broadcasts a cancel to the other replica';
const LOCK_CASE = 'holds a thread’s lock against the other replica until released, and not another thread’s';

/** Two replicas of one shared space; `breakB` replaces what replica b does (a broken implementation). */
const clusterOf =
  (breakB: (replica: ThreadCluster) => ThreadCluster = (replica) => replica) =>
  (): Promise<ThreadClusterUnderTest> => {
    const space = new SharedThreadSpace();
    return Promise.resolve({
      replicas: [space.replica(), breakB(space.replica())],
      cleanup: () => Promise.resolve(),
    });
  };

const caseNamed = (cases: ContractCase[], name: string): ContractCase => {
  const found = cases.find((contractCase) => contractCase.name === name);
  if (!found) throw new Error(`no case named ${name}`);
  return found;
};

/** The case's verdict once `CONTRACT_CASE_TIMEOUT_MS` of (fake) time has passed: a hang cannot outlast it. */
async function verdictAfterTheBound(contractCase: ContractCase): Promise<unknown> {
  const verdict = contractCase.run().then(
    () => 'passed',
    (error: unknown) => error,
  );
  await jest.advanceTimersByTimeAsync(CONTRACT_CASE_TIMEOUT_MS);
  return verdict;
}

describe('threadClusterContractCases: every case bounded', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('a working cluster passes every case, each within the bound', async () => {
    const cases = threadClusterContractCases(clusterOf());
    expect(cases.map((contractCase) => contractCase.timeoutMs)).toEqual(
      cases.map(() => CONTRACT_CASE_TIMEOUT_MS),
    );
    for (const contractCase of cases) expect(await verdictAfterTheBound(contractCase)).toBe('passed');
  });

  it('a replica that never hears a cancel fails the broadcast case once the bound passes', async () => {
    const deaf = clusterOf((replica) =>
      Object.assign(Object.create(replica) as ThreadCluster, { onCancelPublished: () => undefined }),
    );
    const verdict = await verdictAfterTheBound(caseNamed(threadClusterContractCases(deaf), CANCEL_CASE));
    expect(verdict).toMatchObject({
      name: 'AssertionError',
      message: `"${CANCEL_CASE}" did not settle within ${CONTRACT_CASE_TIMEOUT_MS} ms`,
    });
  });

  it('a lock that never answers fails the lock case; the bound is the one given', async () => {
    const stuck = clusterOf((replica) =>
      Object.assign(Object.create(replica) as ThreadCluster, {
        lock: () => new Promise<ThreadClusterLock>(() => undefined),
      }),
    );
    const [lockCase] = threadClusterContractCases(stuck, { timeoutMs: 50 }).filter(
      (contractCase) => contractCase.name === LOCK_CASE,
    );
    const verdict = lockCase.run().catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(50);
    expect(await verdict).toMatchObject({ message: `"${LOCK_CASE}" did not settle within 50 ms` });
  });
});
