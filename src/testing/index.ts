/**
 * `agui-a2a-gateway/testing`: the contract suites a host runs on its own thread store and scale-out port
 * (docs/embedding.md#contract-suites). Public API under the same semantic-versioning promise as the main
 * entry; it needs `node:assert` only, no test framework.
 */
export { CONTRACT_CASE_TIMEOUT_MS, type ContractCase, type ContractSuiteOptions } from './contract-case';
export { sampleThreadState } from './sample-thread-state';
export { threadStoreContractCases, type ThreadStoreUnderTest } from './thread-store-contract';
export { threadClusterContractCases, type ThreadClusterUnderTest } from './thread-cluster-contract';
