/**
 * A logcat query's regex work is known before it runs: patterns past the static limits are refused
 * at compile time, a query whose bound (program size × bytes its regexes may read) passes the
 * budget is refused before RE2 runs, and what RE2 really does never exceeds the bound.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LogStore } from './log-store.js';
import { queryLogs, queryLogsYielding, REGEX_BUDGET_NS } from './log-query.js';
import { FairSlices } from './fair-slices.js';
import { LogcatQueryError } from './logcat-query.js';
import type { LogEntry, LogLevel } from './logcat-types.js';
import { MAX_PROGRAM_SIZE, MAX_REPEAT, userRegex } from './user-regex.js';
import { plainEntry } from './test-fixtures.js';

function entry(message: string, tag = 'App', level: LogLevel = 'I', pid = 100): LogEntry {
  return plainEntry({ message, tag, level, pid, tid: pid });
}

/** `n` lines of `bytes` ordinary text each (the 3,000 × 1 KB). */
function storeOf(n: number, bytes: number): LogStore {
  const store = new LogStore();
  const word = 'request finished status=200 in 12 ms for /api/items ';
  for (let i = 0; i < n; i++) {
    store.push(
      entry(word.repeat(Math.ceil(bytes / word.length)).slice(0, bytes), i % 7 === 0 ? 'Net' : 'App'),
    );
  }
  return store;
}

describe('logcat query cost', () => {
  it('refuses the patterns that held the logcat thread, before they run, naming the limit', () => {
    expect(() => userRegex('(?i).{999}.{999}Z')).toThrow(`more than the ${MAX_REPEAT} allowed`);
    expect(() => userRegex('a?'.repeat(500) + 'a'.repeat(500))).toThrow('characters, more than the 512');
    expect(() => userRegex(Array.from({ length: 330 }, (_, i) => `word${i}`).join('|'))).toThrow(
      'characters, more than the 512',
    );
    expect(() => userRegex('(?:[a-z]{60}){9}')).toThrow(`instructions, more than the ${MAX_PROGRAM_SIZE}`);
    const store = storeOf(3_000, 1_000);
    const before = store.size;
    const started = performance.now();
    expect(() => queryLogs(store, { query: 'message~:(?i).{999}.{999}Z' })).toThrow(LogcatQueryError);
    // (.*a){12} compiles small (63 instructions) but reads every byte of every line 63 times over:
    // over a fuller store (10 MB here, 64 MB in the issue) it passes the budget.
    const full = storeOf(10_000, 1_000);
    expect(() => queryLogs(full, { query: 'line~:(?s)(.*a){12}$' })).toThrow(
      /could take more than 2000 ms of regex work \(at worst [\d,]+ ns per byte.*age:5m\), tag:, pid:, level:/,
    );
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(store.size).toBe(before);
  });

  it('narrowing the lines with cheap terms first brings the same pattern within the budget', () => {
    const store = storeOf(3_000, 1_000);
    // 1 in 7 lines is tag Net: the regex reads only those.
    const r = queryLogs(store, { query: 'tag:Net line~:(?s)(.*a){3}$', count: 10 });
    expect(r.entries.every((e) => e.tag === 'Net')).toBe(true);
    // A required literal: RE2 reads only lines that contain it.
    expect(queryLogs(store, { query: 'message~:nomatch(.*a){12}' }).entries).toEqual([]);
  });

  it('never does more regex work than the bound it was admitted under (generated patterns)', () => {
    const atoms = ['a', 'b', '.', '\\d', '[a-z]', 'status', '(?:x|y)', 'ms'];
    const pattern = fc
      .array(fc.tuple(fc.constantFrom(...atoms), fc.constantFrom('', '*', '+', '?', '{2}', '{1,3}')), {
        minLength: 1,
        maxLength: 8,
      })
      .map((parts) => parts.map(([a, q]) => a + q).join(''));
    const store = storeOf(400, 200);
    fc.assert(
      fc.property(
        pattern,
        fc.constantFrom('message', 'line', 'tag'),
        fc.constantFrom('', 'tag:Net ', 'level:info ', '-tag:Net '),
        fc.boolean(),
        (source, field, cheap, ci) => {
          const meter = { work: 0 };
          const query = `${cheap}${field}~:${ci ? '(?i)' : ''}${source}`;
          const rx = userRegex((ci ? '(?i)' : '') + source);
          // The bound: the cost per byte times every byte of the field over the whole store.
          const bytes = Array.from({ length: store.size }, (_, i) => store.at(i)!).reduce(
            (n, e) =>
              n +
              (field === 'tag'
                ? e.tag.length
                : field === 'message'
                  ? e.message.length
                  : e.message.length + 40),
            0,
          );
          try {
            queryLogs(store, { query, count: 10_000 }, { meter });
          } catch (err) {
            expect(err).toBeInstanceOf(LogcatQueryError);
            expect(meter.work).toBe(0); // refused before RE2 ran
            return;
          }
          expect(meter.work).toBeLessThanOrEqual(Math.max(REGEX_BUDGET_NS, rx.costPerByte * bytes));
          expect(meter.work).toBeLessThanOrEqual(REGEX_BUDGET_NS);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the case-insensitive literal prefilter never drops a line RE2 alone matches', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('timeout', 'fatal', 'socket closed', 'ok'),
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        fc.constantFrom('upper', 'lower', 'mixed', 'long-s'),
        (word, pre, post, how) => {
          const shown =
            how === 'upper'
              ? word.toUpperCase()
              : how === 'lower'
                ? word
                : how === 'long-s'
                  ? word.replace(/s/g, '\u017f')
                  : [...word].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
          const rx = userRegex(`(?i)${word}`);
          const text = pre + shown + post;
          expect(rx(text)).toBe(rx.run(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a yielding scan answers what it found, and where it stopped at its deadline', async () => {
    const store = storeOf(20_000, 200);
    {
      const r = await queryLogsYielding(
        store,
        { query: 'message~:status=2\\d\\d', count: 10_000 },
        {},
        10_000,
      );
      expect(r.entries.length).toBe(10_000);
      expect(r.stopped).toBeUndefined();
      // A deadline passed at the first slice (of one entry): the answer so far, saying where it stopped.
      const cut = await queryLogsYielding(store, { text: 'status=200', count: 10_000 }, {}, 0, {
        slices: new FairSlices(),
        session: 'a',
        sliceMs: 0,
      });
      expect(cut.stopped).toMatch(/^stopped after 0 ms at seq \d+ \(1 entries examined\)/);
      expect(cut.has_more).toBe(true);
      expect(cut.entries.length).toBeLessThan(10_000);
    }
  });
});
