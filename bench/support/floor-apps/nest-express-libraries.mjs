// The floor of bench/floor.ts with the framework and the libraries every run of the gateway uses (the AG-UI
// schemas and encoder, the A2A client, the DTO layer, the kernel calls' HTTP client, the request log, metrics,
// the state schema's validator, the stream reader), loaded and not used; then the same hello app.
import '@ag-ui/core';
import '@ag-ui/encoder';
import '@a2a-js/sdk';
import '@a2a-js/sdk/client';
import 'ajv';
import 'class-transformer';
import 'class-validator';
import 'eventsource-parser';
import 'nestjs-pino';
import 'pino-http';
import 'prom-client';
import 'undici';

await import('./nest-express.mjs');
