import { describe, expect, it } from 'vitest';
import { entryBytes, LogStore } from './log-store.js';
import { parseLogcat } from './logcat-parse.js';
import type { Crash, LogEntry } from './logcat-types.js';
import { fixture } from './test-fixtures.js';

function entries(device: string | null = 'emulator-5554'): LogEntry[] {
  return parseLogcat(fixture('threadtime-api25.txt'), { year: 2024, device }).entries;
}

function crash(kind: Crash['kind'], pkg: string, device: string): Crash {
  return {
    kind,
    seq: 0,
    device,
    package: pkg,
    process: pkg,
    pid: 1,
    tid: 1,
    ts: 0,
    received_at: 0,
    thread: null,
    exception: null,
    message: null,
    frames: [],
    causes: [],
    suppressed: [],
    signal: null,
    signal_number: null,
    signal_code: null,
    fault_addr: null,
    abort_message: null,
    cause: null,
    abi: null,
    component: null,
    lines: [],
    truncated: false,
    group_id: null,
  };
}

describe('LogStore', () => {
  it('keeps the newest entries within the count bound and counts the dropped ones', () => {
    const store = new LogStore({ maxEntries: 50 });
    const list = entries();
    for (const e of list) {
      store.push(e, 0);
    }
    expect(store.size).toBe(50);
    expect(store.dropped).toBe(30);
    expect(store.at(0)).toBe(list[30]);
    expect(store.at(49)).toBe(list[79]);
    expect(store.at(0)?.seq).toBe(31);
    expect(store.at(50)).toBeUndefined();
  });

  it('keeps the estimated bytes within the byte bound', () => {
    const list = entries();
    const maxBytes = 4096;
    const store = new LogStore({ maxBytes });
    for (const e of list) {
      store.push(e, 0);
      expect(store.bytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(store.bytes).toBe(
      Array.from({ length: store.size }, (_, i) => entryBytes(store.at(i) as LogEntry)).reduce(
        (a, b) => a + b,
        0,
      ),
    );
    expect(store.dropped).toBe(list.length - store.size);
    expect(store.at(store.size - 1)).toBe(list.at(-1));
  });

  it('keeps its counters equal to a recount after evictions', () => {
    const store = new LogStore({ maxEntries: 37 });
    for (const e of entries()) {
      store.push(e, 0);
    }
    const stats = store.stats(0, 100);
    const held = Array.from({ length: store.size }, (_, i) => store.at(i) as LogEntry);
    const byLevel: Record<string, number> = { V: 0, D: 0, I: 0, W: 0, E: 0, F: 0 };
    const byTag = new Map<string, number>();
    for (const e of held) {
      byLevel[e.level] = (byLevel[e.level] ?? 0) + 1;
      byTag.set(e.tag, (byTag.get(e.tag) ?? 0) + 1);
    }
    expect(stats.by_level).toEqual(byLevel);
    expect(new Map(stats.by_tag.map((t) => [t.name, t.count]))).toEqual(byTag);
    expect(stats.by_device).toEqual([{ name: 'emulator-5554', count: 37 }]);
    expect(stats).toMatchObject({ entries: 37, received: 80, dropped: 43, max_entries: 37 });
    expect(stats.oldest_seq).toBe(44);
    expect(stats.newest_seq).toBe(80);
  });

  it('reports lines per second over the last ten seconds', () => {
    const store = new LogStore();
    const list = entries();
    list.slice(0, 40).forEach((e, i) => store.push(e, 1_000_000 + i * 100)); // 40 lines over 4 s
    expect(store.stats(1_004_000).lines_per_second).toBe(4);
    expect(store.stats(1_030_000).lines_per_second).toBe(0);
  });

  it('clears one device’s entries and crashes, or everything', () => {
    const store = new LogStore();
    for (const e of entries('a')) {
      store.push(e, 0);
    }
    for (const e of entries('b').slice(0, 10)) {
      store.push(e, 0);
    }
    store.addCrash(crash('java', 'com.x.y', 'a'));
    store.addCrash(crash('anr', 'com.x.y', 'b'));
    store.clear('a');
    expect(store.size).toBe(10);
    expect(store.stats(0).by_device).toEqual([{ name: 'b', count: 10 }]);
    expect(store.crashes().map((c) => c.device)).toEqual(['b']);
    const seqBefore = store.at(9)?.seq ?? 0;
    store.clear();
    expect(store.size).toBe(0);
    const e = entries('b')[0] as LogEntry;
    store.push(e, 0);
    expect(e.seq).toBeGreaterThan(seqBefore);
  });

  it('keeps the newest crashes, filtered, newest first', () => {
    const store = new LogStore({ maxCrashes: 3 });
    for (let i = 0; i < 10; i++) {
      const c = crash(i % 2 === 0 ? 'java' : 'native', i < 5 ? 'com.a.b' : 'com.c.d', 'd');
      c.seq = i;
      store.addCrash(c);
    }
    expect(store.crashes().map((c) => c.seq)).toEqual([9, 8, 7]);
    expect(store.crashes({ package: 'com.c.d', count: 2 }).map((c) => c.seq)).toEqual([9, 8]);
    expect(store.crashes({ package: 'com.a.b' })).toEqual([]);
    expect(store.stats(0).crashes).toEqual({ total: 3, java: 1, native: 2, anr: 0, js: 0 });
  });
});
