/**
 * What the current test file started and has not closed yet (servers, child processes, apps), so that a
 * setup failing halfway (a `Promise.all` in `beforeAll` where one part threw and the others' handles were
 * never assigned) still stops everything: test/support/closing-environment.js closes what is left once the
 * file has finished, after its own `afterAll` hooks, newest first. Helpers register a resource as soon as it
 * exists; closing it unregisters it.
 */
const OPEN_RESOURCES_KEY = '__aguiOpenTestResources';

interface OpenResource {
  /** What it is, for the message when closing it for the test file failed. */
  readonly name: string;
  close(): Promise<void>;
}

/**
 * Registers a resource and returns its close function, which runs `close` once (later calls get the same
 * promise) and unregisters it, whether the test or the environment calls it first.
 */
export function trackedClose(name: string, close: () => Promise<void>): () => Promise<void> {
  const holder = globalThis as { [OPEN_RESOURCES_KEY]?: Set<OpenResource> };
  const open = (holder[OPEN_RESOURCES_KEY] ??= new Set());
  let closing: Promise<void> | undefined;
  const resource: OpenResource = {
    name,
    close: () =>
      (closing ??= (async () => {
        open.delete(resource);
        await close();
      })()),
  };
  open.add(resource);
  return resource.close;
}
