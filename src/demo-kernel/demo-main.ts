// First, as in main.ts: the modules below are then read from Node's compile cache.
import '../common/enable-compile-cache';
import './with-demo-kernel';
import '../main';

/**
 * The demo build's entry point (`npm start`, the image's `demo` target): the standalone service with the
 * embedded demo kernel registered (docs/architecture.md#decisions).
 */
