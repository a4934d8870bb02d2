// Preloaded into the service by `fuzz:memory` with FUZZ_FORCE_GC=1 (with --expose-gc): SIGUSR2 runs a full
// garbage collection, so the figures after it say how much of the heap was still referenced.
process.on('SIGUSR2', () => globalThis.gc?.());
