/**
 * `agui-a2a-gateway/testing`: the contract suites a host runs on its own thread store and scale-out port
 * (docs/embedding.md#contract-suites), and a scripted A2A kernel to run a host against
 * (docs/extending.md#try-it). Public API under the same semantic-versioning promise as the main entry; the
 * suites need `node:assert` only, no test framework. Neither the main entry nor the service loads it.
 */
export { CONTRACT_CASE_TIMEOUT_MS, type ContractCase, type ContractSuiteOptions } from './contract-case';
export { sampleThreadState } from './sample-thread-state';
export { threadStoreContractCases, type ThreadStoreUnderTest } from './thread-store-contract';
export { threadClusterContractCases, type ThreadClusterUnderTest } from './thread-cluster-contract';
export {
  SCRIPTED_KERNEL_PROMPTS,
  startScriptedKernel,
  type ScriptedKernel,
  type ScriptedKernelOptions,
  type ScriptedKernelPrompt,
} from './scripted-kernel';
