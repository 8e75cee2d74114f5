import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The build records of a data dir's build-history.json, oldest first (empty when there is none). */
export function readHistoryFrom(home: string): Record<string, unknown>[] {
  try {
    return (
      JSON.parse(readFileSync(path.join(home, 'build-history.json'), 'utf8')) as {
        builds: Record<string, unknown>[];
      }
    ).builds;
  } catch {
    return [];
  }
}
