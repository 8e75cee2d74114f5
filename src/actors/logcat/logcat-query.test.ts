import { describe, expect, it } from 'vitest';
import { compileLogcatQuery, LogcatQueryError, type QueryContext } from './logcat-query.js';
import { LogEnricher } from './logcat-enrich.js';
import { CrashDetector, type DetectedCrash } from './crash-detect.js';
import { parseLogcat } from './logcat-parse.js';
import { PidMap } from './pid-map.js';
import type { LogEntry } from './logcat-types.js';
import { fixture } from './test-fixtures.js';

function load(name: string): LogEntry[] {
  const pids = new PidMap();
  const enricher = new LogEnricher({ pids });
  const detector = new CrashDetector({ pids });
  const out: DetectedCrash[] = [];
  const { entries } = parseLogcat(fixture(name), { year: 2024 });
  for (const e of entries) {
    enricher.enrich(e);
    detector.feed(e, out);
  }
  detector.flush(out);
  return entries;
}

const TRICKY = load('tricky-tags.txt');
const OHMY = load('studio-new-ohmybread.txt');
const KIVY = load('threadtime-kivy-crash.txt');

function run(entries: LogEntry[], query: string, ctx: QueryContext = {}): LogEntry[] {
  const p = compileLogcatQuery(query, ctx);
  return p === null ? entries : entries.filter(p);
}

function tags(entries: LogEntry[]): string[] {
  return entries.map((e) => e.tag);
}

describe('Android Studio query syntax', () => {
  it('matches key:value as a case-insensitive substring of the field', () => {
    expect(tags(run(TRICKY, 'tag:qosmon'))).toEqual(['`QosMonitor`']);
    expect(tags(run(TRICKY, 'message:G_MONITOR'))).toEqual([
      'p/RegexishButInvalid(/',
      'RegexishButInvalid(',
      '/RegexishButInvalid(/',
    ]);
  });

  it('matches exact values with key=: and regexes with key~:, both case-sensitive', () => {
    expect(tags(run(TRICKY, 'tag=:RegexishButInvalid('))).toEqual(['RegexishButInvalid(']);
    expect(tags(run(TRICKY, 'tag=:regexishbutinvalid('))).toEqual([]);
    expect(tags(run(TRICKY, 'tag~:^/.*\\($'))).toEqual([]);
    expect(tags(run(TRICKY, 'tag~:^/.*/$'))).toEqual(['/RegexishButInvalid(/']);
    expect(tags(run(TRICKY, 'message~:messag\\[e\\.\\]'))).toEqual(['Comma,Tag']);
  });

  it('negates terms with a leading minus', () => {
    expect(tags(run(TRICKY, '-tag:Regexish'))).toEqual(['Comma,Tag', '`WifiProJNI', '`QosMonitor`']);
    expect(tags(run(TRICKY, '-tag~:^`'))).toHaveLength(4);
    expect(tags(run(TRICKY, '-tag=:Comma,Tag -message:poll'))).toEqual(['`WifiProJNI', '`QosMonitor`']);
  });

  it('takes quoted values with spaces and escapes', () => {
    expect(tags(run(TRICKY, 'message:"poll before"'))).toHaveLength(3);
    expect(tags(run(TRICKY, "message:'And with special'"))).toEqual(['Comma,Tag']);
    expect(tags(run(TRICKY, 'message:poll\\ before'))).toHaveLength(3);
    expect(tags(run(TRICKY, 'tag: QosMonitor'))).toEqual(['`QosMonitor`']);
  });

  it('treats bare words as one phrase searched in the message', () => {
    expect(tags(run(TRICKY, 'CMD_QUERY_PKTS'))).toEqual(['`WifiProJNI']);
    expect(tags(run(TRICKY, 'poll before'))).toHaveLength(3);
    expect(tags(run(TRICKY, 'before poll'))).toHaveLength(0);
  });

  it('ANDs terms, ORs same-key terms at the top level, and binds & tighter than |', () => {
    expect(tags(run(TRICKY, 'tag:Comma tag:QosMonitor'))).toEqual(['Comma,Tag', '`QosMonitor`']);
    expect(tags(run(TRICKY, 'tag:Regexish message:poll -tag:/'))).toEqual(['RegexishButInvalid(']);
    expect(tags(run(TRICKY, 'tag:Comma & tag:QosMonitor'))).toEqual([]);
    expect(tags(run(TRICKY, 'tag:Comma | tag:Wifi & message:CMD'))).toEqual(['Comma,Tag', '`WifiProJNI']);
    expect(tags(run(TRICKY, '(tag:Comma | tag:Wifi) & message:CMD'))).toEqual(['`WifiProJNI']);
  });

  it('filters by level (that level and above), pid, tid and age', () => {
    expect(run(OHMY, 'level:error').every((e) => e.level === 'E' || e.level === 'F')).toBe(true);
    expect(run(OHMY, 'level:error')).toHaveLength(10);
    expect(run(OHMY, 'level:W')).toHaveLength(17);
    expect(run(OHMY, 'pid:2155 tid:2201')).toHaveLength(10);
    const newest = Math.max(...OHMY.map((e) => e.ts));
    expect(run(OHMY, 'age:1s', { now: newest })).toHaveLength(
      OHMY.filter((e) => e.ts >= newest - 1000).length,
    );
    expect(run(OHMY, 'age:1s', { now: newest }).length).toBeGreaterThan(0);
    expect(run(OHMY, 'age:10d', { now: newest })).toHaveLength(OHMY.length);
  });

  it('resolves package:mine to the given packages, plus error lines that name them', () => {
    const mine = run(OHMY, 'package:mine', { mine: ['br.com.ohmybread'] });
    expect(
      mine.every(
        (e) =>
          e.package === 'br.com.ohmybread' || (e.level === 'E' && e.message.includes('br.com.ohmybread')),
      ),
    ).toBe(true);
    expect(mine.filter((e) => e.tag === 'BufferQueueDebug')).toHaveLength(8);
    expect(run(OHMY, 'package:mine')).toEqual([]);
    expect(
      run(OHMY, 'package:mine level:error -tag:BufferQueueDebug', { mine: ['br.com.ohmybread'] }).map(
        (e) => e.tag,
      ),
    ).toEqual(['QT', 'QT']);
    expect(run(OHMY, 'package:mine package:surface', { mine: ['br.com.ohmybread'] }).length).toBe(
      mine.length,
    );
  });

  it('finds crash lines and stack frames with is:crash and is:stacktrace', () => {
    expect(run(KIVY, 'is:crash').map((e) => e.tag)).toEqual([
      'libc',
      ...Array<string>(11).fill('AndroidRuntime'),
    ]);
    expect(run(KIVY, 'is:stacktrace')).toHaveLength(8);
    expect(run(KIVY, 'is:crash -tag:libc package:googlequicksearchbox level:E')).toHaveLength(11);
  });

  it('answers an invalid query with an error that says what is wrong', () => {
    const cases: [string, RegExp][] = [
      ['level:loud', /invalid level 'loud'/],
      ['age:5y', /invalid age '5y'/],
      ['is:broken', /is:broken/],
      ['tag~:(', /invalid regular expression '\('/],
      ['(tag:a', /never closed/],
      ['tag:a)', /unbalanced parentheses/],
      ['tag:a |', /needs an expression on both sides|ends where an expression/],
      ['& tag:a', /expected an expression/],
      ['message:"x y', /unterminated quoted value/],
      ['tag:', /tag: needs a value/],
      ['pid:abc', /invalid pid/],
    ];
    for (const [q, msg] of cases) {
      expect(() => compileLogcatQuery(q), q).toThrow(LogcatQueryError);
      expect(() => compileLogcatQuery(q), q).toThrow(msg);
    }
    expect(compileLogcatQuery('   ')).toBeNull();
    // Unknown keys are free text, as in Studio.
    expect(tags(run(TRICKY, 'foo:bar'))).toEqual([]);
  });
});
