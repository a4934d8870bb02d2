import { faultOfEnvelope, KERNEL_FAULT_METADATA_KEY } from './kernel-fault-marker';

const envelopeWith = (metadata: unknown) => ({
  jsonrpc: '2.0',
  id: 1,
  result: {
    statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' }, metadata },
  },
});

describe('faultOfEnvelope', () => {
  it.each([
    {
      name: 'drop marker',
      envelope: envelopeWith({ [KERNEL_FAULT_METADATA_KEY]: { kind: 'drop' } }),
      expected: { kind: 'drop' },
    },
    {
      name: 'rpc-error marker',
      envelope: envelopeWith({
        [KERNEL_FAULT_METADATA_KEY]: { kind: 'rpc-error', code: -32603, message: 'x' },
      }),
      expected: { kind: 'rpc-error', code: -32603, message: 'x' },
    },
    {
      name: 'unknown fault kind',
      envelope: envelopeWith({ [KERNEL_FAULT_METADATA_KEY]: { kind: 'boom' } }),
      expected: undefined,
    },
    {
      name: 'ordinary iac_code metadata',
      envelope: envelopeWith({ iac_code: { iacCodeSessionId: 's' } }),
      expected: undefined,
    },
    { name: 'no metadata', envelope: envelopeWith(undefined), expected: undefined },
    {
      name: 'a task frame',
      envelope: { jsonrpc: '2.0', id: 1, result: { task: { id: 't' } } },
      expected: undefined,
    },
    {
      name: 'an error envelope',
      envelope: { jsonrpc: '2.0', id: 1, error: { code: 1 } },
      expected: undefined,
    },
    { name: 'not an object', envelope: 'data', expected: undefined },
  ])('$name', ({ envelope, expected }) => {
    expect(faultOfEnvelope(envelope)).toEqual(expected);
  });
});
