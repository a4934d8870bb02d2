import {
  heapBySite,
  kindGrowth,
  snapshotByKind,
  type HeapSnapshot,
  type SamplingHeapNode,
} from './summarize-heap';

const frame = (functionName: string, url: string, selfSize: number, children: SamplingHeapNode[] = []) => ({
  callFrame: { functionName, url, lineNumber: 0 },
  selfSize,
  children,
});

describe('heap summary', () => {
  it("attributes the loader's and the runtime's allocations to the package or gateway file that asked for them", () => {
    const head = frame('(root)', '', 0, [
      frame('', 'file:///app/dist/runs/run.service.js', 1024, [
        frame('compileSourceTextModule', 'node:internal/modules/esm/utils', 2048, [
          frame('', 'file:///app/node_modules/@ag-ui/core/dist/index.js', 4096),
        ]),
      ]),
      frame('(GC)', '', 512),
    ]);
    const { byArea, byFunction } = heapBySite(head);
    expect(byArea).toEqual([
      { name: '@ag-ui/core', kb: 4 },
      { name: 'gateway runs/', kb: 3 },
      { name: '(runtime)', kb: 0.5 },
    ]);
    expect(byFunction[1]).toEqual({ name: '(anonymous) run.service.js:1', kb: 3 });
  });

  it('sums a snapshot by kind and divides the growth by the runs', () => {
    const meta = {
      node_fields: ['type', 'name', 'id', 'self_size'],
      node_types: [['hidden', 'object', 'closure']] as [string[]],
    };
    const snapshot = (nodes: number[]): HeapSnapshot => ({
      snapshot: { meta },
      nodes,
      strings: ['Socket', 'x'],
    });
    const before = snapshotByKind(snapshot([1, 0, 1, 100, 0, 1, 2, 8]));
    const after = snapshotByKind(snapshot([1, 0, 1, 100, 1, 0, 3, 400, 2, 0, 4, 300, 0, 1, 5, 8]));
    expect(before.get('object Socket')).toEqual({ bytes: 100, count: 1 });
    expect(kindGrowth(before, after, 2)).toEqual([
      { kind: 'object Socket', bytesEach: 200, countEach: 0.5 },
      { kind: 'closure Socket', bytesEach: 150, countEach: 0.5 },
      { kind: '(hidden)', bytesEach: 0, countEach: 0 },
    ]);
  });
});
