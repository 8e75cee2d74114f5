/**
 * Clients we did not write (mobile-mcp for the benches, Appium for its end-to-end test), installed at
 * pinned versions on first use into a folder of node_modules/.cache: kept out of droidbus's lockfile,
 * installed again only when `installed` (a file the install leaves) is missing.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { runProcess } from '../../src/util/exec.js';

export async function installPinned(
  dir: string,
  specs: readonly string[],
  installed: readonly string[],
): Promise<void> {
  if (installed.every((f) => existsSync(f))) {
    return;
  }
  mkdirSync(dir, { recursive: true });
  process.stderr.write(`installing ${specs.join(' ')} into ${dir}\n`);
  const r = await runProcess(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, ...specs],
    { timeoutMs: 600_000 },
  );
  if (r.code !== 0 || !installed.every((f) => existsSync(f))) {
    throw new Error(`could not install ${specs.join(' ')}: ${(r.stderr || r.stdout).slice(-800)}`);
  }
}
