import { threadStoreContractCases, type ThreadStoreUnderTest } from '../../src/testing';

export { sampleThreadState } from '../../src/testing';
export type { ThreadStoreUnderTest } from '../../src/testing';

/**
 * The exported ThreadStore contract (`agui-a2a-gateway/testing`) as a Jest block, for the project's own
 * stores: `describeThreadStoreContract('FileThreadStore', async () => ({ store, cleanup, corrupt }))`.
 */
export function describeThreadStoreContract(
  name: string,
  makeStore: () => Promise<ThreadStoreUnderTest>,
): void {
  describe(`${name} (ThreadStore contract)`, () => {
    for (const contractCase of threadStoreContractCases(makeStore)) it(contractCase.name, contractCase.run);
  });
}
