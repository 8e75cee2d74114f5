/**
 * Tools only translate: each tool's handler sends one bus request for its work, and a flow of
 * several steps (capture then windows, crashes then retrace, build then find the APK, wait and
 * poll) is one request to the actor that owns it. Checked on each tool definition's text with the
 * functions of its own file it calls: the distinct request types it names. Resolving its arguments
 * first (which device: devices.list/devices.resolve; the project's packages: project.scope) is done
 * by shared helpers in other files and is not a step of the work.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_TOOLS } from '../../src/mcp/registry.js';
import { ROOT } from '../helpers/paths.js';

/** Tools declared through a factory in their file (the factory's text is checked once). */
const FACTORY_MADE = ['dismiss_notification', 'ui_type_text_unicode'];

const REQUEST = /\b(?:request|ask)\(\s*'([a-z_]+\.[a-z_]+)'/g;

function toolRequests(): Map<string, string[]> {
  const dir = path.join(ROOT, 'src', 'mcp', 'tools');
  const out = new Map<string, string[]>();
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts') && !x.endsWith('.test.ts'))) {
    const text = readFileSync(path.join(dir, f), 'utf8');
    const functions = new Map<string, string[]>();
    for (const m of text.matchAll(/^(?:export )?(?:async )?function (\w+)[^]*?\n}\n/gm)) {
      functions.set(
        m[1]!,
        [...m[0].matchAll(REQUEST)].map((x) => x[1]!),
      );
    }
    for (const m of text.matchAll(/define(?:Device)?Tool\(\{/g)) {
      const body = text.slice(m.index, text.indexOf('\n});', m.index));
      const name = /name: '(\w+)'/.exec(body)?.[1];
      if (name === undefined) {
        continue;
      }
      const own = [...body.matchAll(REQUEST)].map((x) => x[1]!);
      const called = [...functions.keys()]
        .filter((fn) => new RegExp(`\\b${fn}\\(`).test(body))
        .flatMap((fn) => functions.get(fn)!);
      out.set(name, [...new Set([...own, ...called])]);
    }
  }
  return out;
}

describe('tool handlers', () => {
  it('send one bus request for their work: no tool chains actor requests', () => {
    const found = toolRequests();
    // Every tool was read, but those a factory makes (their definition's text is the factory's,
    // read under the factory's first tool): a definition the pattern misses would pass unseen.
    const unread = ALL_TOOLS.filter((t) => !found.has(t.name)).map((t) => t.name);
    expect(unread.sort()).toEqual(FACTORY_MADE);
    const chains = [...found]
      .filter(([, types]) => types.length > 1)
      .map(([n, t]) => `${n}: ${t.join(' → ')}`);
    expect(chains).toEqual([]);
  });
});
