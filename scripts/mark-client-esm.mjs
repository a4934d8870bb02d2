// The client's ESM build (tsconfig.client-esm.json) lies under a package.json of its own that says so,
// next to the CommonJS build of the rest: `agui-a2a-gateway/client` then loads the app's own copy of
// @ag-ui/client whether the app imports or requires it (docs/clients.md "ReattachingHttpAgent").
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

const esm = path.join(process.argv[2] ?? 'dist', 'client', 'esm');
mkdirSync(esm, { recursive: true });
writeFileSync(path.join(esm, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
