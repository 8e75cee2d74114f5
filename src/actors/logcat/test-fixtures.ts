/** Test helper: reads a file from tests/fixtures/logcat (see its SOURCES.md). */
import { readFileSync } from 'node:fs';
import type { LogEntry } from './logcat-types.js';

/** The fixture's bytes. */
export function fixtureBytes(name: string): Buffer {
  return readFileSync(new URL(`../../../tests/fixtures/logcat/${name}`, import.meta.url));
}

/** The fixture as text. */
export function fixture(name: string): string {
  return fixtureBytes(name).toString('utf8');
}

/** A plain log entry (no crash, no package) for store and query tests; fields overridable. */
export function plainEntry(fields: Partial<LogEntry> = {}): LogEntry {
  return {
    seq: 0,
    ts: Date.now(),
    pid: 1,
    tid: 1,
    level: 'I',
    tag: 'T',
    message: '',
    package: null,
    category: null,
    crash: null,
    crash_group: null,
    json: null,
    launch: null,
    device: 'emulator-5554',
    buffer: null,
    cont: false,
    ...fields,
  };
}
