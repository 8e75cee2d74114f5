/** Test helper: reads a file from tests/fixtures/logcat (see its SOURCES.md). */
import { readFileSync } from 'node:fs';

/** The fixture's bytes. */
export function fixtureBytes(name: string): Buffer {
  return readFileSync(new URL(`../../../tests/fixtures/logcat/${name}`, import.meta.url));
}

/** The fixture as text. */
export function fixture(name: string): string {
  return fixtureBytes(name).toString('utf8');
}
