/** Test helper: real UI dumps from tests/fixtures/ui (see its SOURCES.md), raw or parsed. */
import { readFileSync } from 'node:fs';
import { parseUiDump } from './ui-parse.js';
import type { UiTree } from './ui-types.js';

/** The fixture's bytes. */
export function uiFixture(name: string): Buffer {
  return readFileSync(new URL(`../../../tests/fixtures/ui/${name}`, import.meta.url));
}

/** The fixture as text. */
export function uiFixtureText(name: string): string {
  return uiFixture(name).toString('utf8');
}

/** A dump parsed, or a throw with the parser's reason. */
export function treeOf(dump: string | Uint8Array): UiTree {
  const r = parseUiDump(dump);
  if (!r.ok) {
    throw new Error(r.error.message);
  }
  return r.value;
}
