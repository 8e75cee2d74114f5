import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every .ts file below `dir` that is not a test, for the guard tests that read the source. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      return sourceFiles(full);
    }
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}
