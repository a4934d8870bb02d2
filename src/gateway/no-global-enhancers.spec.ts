import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const SRC = path.resolve(__dirname, '..');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

/**
 * "No global side effects": a host importing AguiGatewayModule keeps its routes as they were, so
 * the gateway registers no app-wide guard, filter, pipe or interceptor, in providers or on the app.
 */
describe('no global enhancers', () => {
  it.each([
    'APP_GUARD',
    'APP_FILTER',
    'APP_PIPE',
    'APP_INTERCEPTOR',
    'useGlobalGuards',
    'useGlobalFilters',
    'useGlobalPipes',
    'useGlobalInterceptors',
    'enableCors',
  ])('%s appears nowhere in src/', (name) => {
    const offenders = sourceFiles(SRC).filter((file) => readFileSync(file, 'utf8').includes(name));
    expect(offenders.map((file) => path.relative(SRC, file))).toEqual([]);
  });
});
