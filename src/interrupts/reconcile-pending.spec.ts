import type { PendingInterruptEntry } from './pending-interrupt';
import { reconcilePending, type ReconcilePendingArgs } from './reconcile-pending';

const CONTEXT = 'agui-4b0a5fefc328e6b9257bc535e3c5d26fec36b52f';
const DURABLE: Record<string, PendingInterruptEntry> = {
  'permission-1': { value: { kind: 'permission', inputId: 'permission-1' }, sideband: false },
};
const NEW_WAIT = { kind: 'permission', inputId: 'permission-2', requestTaskId: 'task-1', required: true };

const args = (
  snapshot: ReconcilePendingArgs['snapshot'],
  resumeIds: string[] = ['permission-1'],
): ReconcilePendingArgs => ({
  current: DURABLE,
  snapshot,
  resumeIds,
  boundTaskId: 'task-1',
  contextId: CONTEXT,
});

const reconcileCases: { name: string; args: ReconcilePendingArgs; ids: string[]; replaced: boolean }[] = [
  {
    name: 'a restarted kernel summary without input metadata keeps the durable interrupt',
    args: args({ state: 'working', requiredInputs: [], sidebandInputIds: [] }),
    ids: ['permission-1'],
    replaced: false,
  },
  {
    name: 'an explicit empty projection keeps the interrupt the resume answers',
    args: args({
      state: 'working',
      iacCode: { pendingPermissions: [] },
      requiredInputs: [],
      sidebandInputIds: [],
    }),
    ids: ['permission-1'],
    replaced: false,
  },
  {
    name: 'a second wait is merged next to the one the resume answers',
    args: args({
      state: 'input-required',
      iacCode: { pendingPermissions: [NEW_WAIT] },
      requiredInputs: [NEW_WAIT],
      sidebandInputIds: ['permission-2'],
    }),
    ids: ['permission-1', 'permission-2'],
    replaced: false,
  },
  {
    name: 'an explicit projection replaces when the resume answers no known id',
    args: args(
      {
        state: 'input-required',
        iacCode: { input: NEW_WAIT },
        requiredInputs: [NEW_WAIT],
        sidebandInputIds: [],
      },
      ['old-candidate'],
    ),
    ids: ['permission-2'],
    replaced: true,
  },
  {
    name: 'a terminal task replaces whatever the resume answers',
    args: args({ state: 'completed', requiredInputs: [], sidebandInputIds: [] }),
    ids: [],
    replaced: true,
  },
  {
    name: 'a canceled task replaces too',
    args: args({ state: 'canceled', iacCode: {}, requiredInputs: [], sidebandInputIds: [] }),
    ids: [],
    replaced: true,
  },
];

describe('reconcilePending', () => {
  it.each(reconcileCases)('$name', ({ args: reconcileArgs, ids, replaced }) => {
    const result = reconcilePending(reconcileArgs);
    expect([Object.keys(result.pending), result.replaced]).toEqual([ids, replaced]);
  });

  it('gives entries it adds the expiresAt and sideband flag of the snapshot', () => {
    const result = reconcilePending({
      ...args({
        state: 'working',
        iacCode: {},
        requiredInputs: [NEW_WAIT],
        sidebandInputIds: ['permission-2'],
      }),
      expiresAt: '2026-01-01T00:09:00.000Z',
    });
    expect(result.added).toEqual(['permission-2']);
    expect(result.pending['permission-2']).toMatchObject({
      sideband: true,
      expiresAt: '2026-01-01T00:09:00.000Z',
    });
    expect(result.pending['permission-1']).toBe(DURABLE['permission-1']);
  });
});
