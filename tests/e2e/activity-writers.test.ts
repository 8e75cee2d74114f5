import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/paths.js';

const WRITER = path.join(ROOT, 'tests', 'fixtures', 'host', 'activity-writer.mjs');
const WRITERS = 4;
const EACH = 500;

function runWriter(home: string, writer: number, batch: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, String(writer), String(EACH), String(batch)], {
      env: { ...process.env, DROIDBUS_HOME: home },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

describe('the activity log with several writers', () => {
  it(`loses no line when ${WRITERS} processes append ${EACH} entries each and it rotates in between`, async () => {
    const home = tempDir('db-aw-');
    try {
      // Different batch sizes, so the processes' appends and rotations interleave unevenly.
      const codes = await Promise.all(
        Array.from({ length: WRITERS }, (_, w) => runWriter(home.dir, w, [1, 7, 25, 50][w]!)),
      );
      expect(codes).toEqual(Array(WRITERS).fill(0));
      const lines = readFileSync(path.join(home.dir, 'mcp-activity.jsonl'), 'utf8').split('\n');
      expect(lines.pop()).toBe(''); // the file ends with a newline: no torn last line
      const entries = lines.map(
        (line) => JSON.parse(line) as { session: string; name: string; summary: string },
      );
      // It rotated: 2,000 entries were appended, the file keeps the last ones only.
      expect(entries.length).toBeLessThan(WRITERS * EACH);
      expect(entries.length).toBeGreaterThanOrEqual(500);

      // The file is the tail of the global append order: each writer's entries in it are a gapless
      // run that ends with its last entry, in order. A lost append would leave a gap; a line
      // appended to a file being replaced would be missing from the end.
      for (let w = 0; w < WRITERS; w++) {
        const seqs = entries
          .filter((e) => e.session === `writer-${w}`)
          .map((e) => Number(e.name.slice(e.name.indexOf('-') + 1)));
        if (seqs.length === 0) {
          continue;
        }
        const first = seqs[0]!;
        expect(seqs, `writer ${w}`).toEqual(Array.from({ length: EACH - first }, (_, i) => first + i));
      }
      // Every entry is whole, with its summary cut to 120 bytes.
      for (const e of entries) {
        expect(Buffer.byteLength(e.summary, 'utf8')).toBeLessThanOrEqual(120);
      }
    } finally {
      home.remove();
    }
  });
});
