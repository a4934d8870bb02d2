/**
 * `node --import tsx bench/chart.ts <bench/results/….json> [out.svg]`: draws the side-by-side chart of a bench run
 * already written (`npm run bench` draws its own next to its JSON); without `out.svg`, next to the JSON. Used
 * for the committed `docs/benchmarks.svg` of the reference run.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { benchChartSvg } from './report/bench-chart';
import type { BenchResult } from './report/bench-result';

async function main(): Promise<void> {
  const [input, output = input?.replace(/\.json$/, '.svg')] = process.argv.slice(2);
  if (!input || !input.endsWith('.json')) throw new Error('usage: bench/chart.ts <result.json> [out.svg]');
  const result = JSON.parse(await readFile(input, 'utf8')) as BenchResult;
  await writeFile(output, benchChartSvg(result));
  process.stdout.write(`written ${output}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`chart failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
