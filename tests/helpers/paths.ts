import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root folder. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The built CLI every end-to-end test runs (npm test builds it first). */
export const CLI = path.join(ROOT, 'dist', 'cli.js');

/**
 * Imports a module from the build (dist/) with the types of its source: code that starts worker
 * threads must run from dist/, because the workers load compiled JavaScript.
 */
export async function fromDist<T>(relativeToSrc: string): Promise<T> {
  const file = path.join(ROOT, 'dist', relativeToSrc.replace(/\.ts$/, '.js'));
  return (await import(file)) as T;
}

/** A fresh temporary folder, and its removal. */
export function tempDir(prefix = 'droidbus-test-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
