/**
 * `npm run bench`: runs every benchmark under bench/ in turn (each prints its own figures).
 * Pass names to run only some: `npx tsx bench/run.ts bus logcat`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const dir = fileURLToPath(new URL('./', import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(dir)
  // budgets.ts runs the other benchmarks itself (and the load tests): `npx tsx bench/budgets.ts`.
  .filter((f) => f.endsWith('.ts') && !['run.ts', 'stats.ts', 'budgets.ts'].includes(f))
  .map((f) => f.slice(0, -3))
  .filter((name) => wanted.length === 0 || wanted.includes(name));

let failed = 0;
for (const name of benches) {
  process.stdout.write(`\n=== bench/${name} ===\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, `${name}.ts`)], {
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    failed++;
    process.stdout.write(`bench/${name} exited with ${result.status}\n`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
