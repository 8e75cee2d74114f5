/**
 * The logcat query's regex cost model beside what RE2 really takes: for each kind of instruction
 * (runes, `.`, small and large classes, case-folded runes and classes, alternations, captures), a
 * pattern that keeps every instruction alive on every byte of an adversarial line, its measured
 * nanoseconds per byte (median of runs) and what the model (src/actors/logcat/regex-cost.ts) says.
 * "bound/measured" ≥ 1 means the model is an upper bound there; the weights come from this table.
 * Run: npx tsx bench/regex-cost.ts [--runs 9]
 */
import { parseArgs } from 'node:util';
import { RE2JS } from 're2js';
import { regexCostPerByte } from '../src/actors/logcat/regex-cost.js';
import { userRegex } from '../src/actors/logcat/user-regex.js';
import { printTable, quantile } from './stats.js';

const args = parseArgs({ options: { runs: { type: 'string', default: '9' } } });
const runs = Number(args.values.runs);

/** [kind, pattern, the character the line repeats]: no `Q`/`R`, so no match ends a thread early. */
const CASES: [string, string, string][] = [
  ['rune', 'a{1,100}[QR]', 'a'],
  ['any (.)', '.{1,100}[QR]', 'b'],
  ['any, dot-all', '(?s).{1,100}[QR]', 'b'],
  ['small class', '[a-z]{1,100}[QR]', 'b'],
  ['\\w', '\\w{1,100}[QR]', 'b'],
  ['large class (\\pL, 1,368 bounds)', '\\pL{1,100}[QR]', 'ж'],
  ['large class (1,650 bounds)', '[\\pL\\pN\\pM]{1,100}[QR]', 'b'],
  ['folded rune', '(?i)a{1,100}Q', 'a'],
  ['folded small class', '(?i)[a-z]{1,100}Q', 'b'],
  ['folded \\w', '(?i)\\w{1,100}Q', 'b'],
  ['folded large class (issue 68)', '(?i)[\\pL\\pN\\pM]{1,100}z', 'b'],
  ['alternation', '(?:a|b|c|d|e|f|g|h|i|j){1,40}[QR]', 'b'],
  ['nested alternation', '(?:(?:a|b)(?:a|b)){1,40}[QR]', 'b'],
  ['capture', '(a){1,100}[QR]', 'a'],
  ['(.*a){12} (issue 49)', '(?s)(.*a){12}$', 'a'],
];

const rows: Record<string, string | number>[] = [];
for (const [kind, pattern, ch] of CASES) {
  const rx = userRegex(pattern);
  const model = regexCostPerByte(RE2JS.compile(pattern));
  const line = ch.repeat(1_000);
  const perByte: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) {
      rx.run(line);
    }
    perByte.push(((performance.now() - t0) * 1e6) / (5 * line.length));
  }
  const measured = quantile(perByte, 0.5);
  rows.push({
    kind,
    pattern,
    instructions: rx.programSize,
    'measured ns/byte': measured.toFixed(0),
    'model ns/byte': model.toFixed(0),
    'bound/measured': (model / measured).toFixed(2),
    'ns/instruction': (measured / rx.programSize).toFixed(1),
  });
}
printTable(`regex cost per byte: measured (median of ${runs}) vs the model's bound`, rows);
