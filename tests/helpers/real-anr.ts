/**
 * A real ANR to replay on a sim device: an ART thread dump pasted in a public issue thread
 * (tests/fixtures/anr, SOURCES.md) framed as ART writes a dump, for the pid of a real ActivityManager
 * ANR capture (Droid-ify #1135, tests/fixtures/logcat/tag-droidify-anr.txt) — the dump first (kept
 * in /data/anr, as the device's dumper leaves it), then the log.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AdbServer } from './adb-server.js';
import { ROOT } from './paths.js';

/** The pid of the real capture's ANR. */
export const REAL_ANR_PID = 17681;

/** A paste of tests/fixtures/anr in the frame ART writes a dump in, for REAL_ANR_PID. */
export function realAnrTraces(paste: string): string {
  const text = readFileSync(path.join(ROOT, 'tests', 'fixtures', 'anr', paste), 'utf8');
  return `----- pid ${REAL_ANR_PID} at 2024-05-02 10:00:00.123 -----\nCmd line: com.looker.droidify\n\n${text}\n----- end ${REAL_ANR_PID} -----\n`;
}

/** The real capture's log lines. */
export function realAnrLog(): string {
  return readFileSync(path.join(ROOT, 'tests', 'fixtures', 'logcat', 'tag-droidify-anr.txt'), 'utf8');
}

/** Pushes the dump of `paste` and the real ANR's log to `serial` and replays both, in that order. */
export async function replayRealAnr(
  server: AdbServer,
  serial: string,
  dir: string,
  paste: string,
): Promise<void> {
  const files = [
    ['traces.txt', realAnrTraces(paste)],
    ['droidify.txt', realAnrLog()],
  ] as const;
  for (const [name, text] of files) {
    const local = path.join(dir, name);
    writeFileSync(local, text);
    const pushed = await server.adb(['-s', serial, 'push', local, `/data/local/tmp/${name}`]);
    if (pushed.code !== 0) {
      throw new Error(`adb push ${name}: ${pushed.stderr}`);
    }
    const replayed = await server.adb(['-s', serial, 'shell', `sim logcat replay /data/local/tmp/${name}`]);
    if (replayed.code !== 0) {
      throw new Error(`sim logcat replay ${name}: ${replayed.stderr || replayed.stdout}`);
    }
  }
}
