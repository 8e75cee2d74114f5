/**
 * `dumpsys meminfo PKG`: the `** MEMINFO in pid N [pkg] **` header, the App Summary (Pss and, on
 * newer Android, Rss per category), the totals, the native and Java heap size/alloc/free, and the
 * object counts.
 */

/** Pss and Rss of one App Summary category, kB. */
export interface MemCategory {
  pss_kb: number | null;
  rss_kb: number | null;
}

/** A heap's size, allocated and free kB. */
export interface HeapUsage {
  size_kb: number;
  alloc_kb: number;
  free_kb: number;
}

/** What the tools report from a meminfo dump. */
export interface MeminfoSummary {
  pid: number | null;
  process: string | null;
  uptime_ms: number | null;
  realtime_ms: number | null;
  java_heap: MemCategory;
  native_heap: MemCategory;
  code: MemCategory;
  stack: MemCategory;
  graphics: MemCategory;
  private_other: MemCategory;
  system: MemCategory;
  unknown: MemCategory;
  total_pss_kb: number | null;
  total_rss_kb: number | null;
  total_swap_kb: number | null;
  native_heap_usage: HeapUsage | null;
  dalvik_heap_usage: HeapUsage | null;
  /** `Views`, `Activities`, `AppContexts`, … */
  objects: Record<string, number>;
}

const SUMMARY_ROWS: Record<string, keyof MeminfoSummary> = {
  'Java Heap': 'java_heap',
  'Native Heap': 'native_heap',
  Code: 'code',
  Stack: 'stack',
  Graphics: 'graphics',
  'Private Other': 'private_other',
  System: 'system',
  Unknown: 'unknown',
};

function empty(): MemCategory {
  return { pss_kb: null, rss_kb: null };
}

function numbersWithEnds(line: string, from: number): { value: number; end: number }[] {
  const out: { value: number; end: number }[] = [];
  const re = /\d+/g;
  re.lastIndex = from;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    out.push({ value: Number(m[0]), end: m.index + m[0].length });
  }
  return out;
}

function emptySummary(): MeminfoSummary {
  return {
    pid: null,
    process: null,
    uptime_ms: null,
    realtime_ms: null,
    java_heap: empty(),
    native_heap: empty(),
    code: empty(),
    stack: empty(),
    graphics: empty(),
    private_other: empty(),
    system: empty(),
    unknown: empty(),
    total_pss_kb: null,
    total_rss_kb: null,
    total_swap_kb: null,
    native_heap_usage: null,
    dalvik_heap_usage: null,
    objects: {},
  };
}

/** Where the reading is: the section, and the column ends its header lines gave. */
interface Reading {
  s: MeminfoSummary;
  section: 'table' | 'summary' | 'objects' | 'other';
  pssEnd: number;
  rssEnd: number;
  /** The table has the Heap Size / Heap Alloc / Heap Free columns. */
  heapColumns: boolean;
}

/** The per-category table: only the native and Dalvik heaps' size, allocated and free. */
function tableLine(r: Reading, line: string): void {
  if (/\bHeap\s+Heap\s+Heap\b/.test(line)) {
    r.heapColumns = true;
  }
  const row = /^\s*(Native Heap|Dalvik Heap)\s+\d/.exec(line);
  if (row === null || !r.heapColumns) {
    return;
  }
  const nums = numbersWithEnds(line, (row.index ?? 0) + (row[0].length - 1));
  if (nums.length >= 4) {
    const [size, alloc, free] = nums.slice(-3).map((n) => n.value) as [number, number, number];
    const usage = { size_kb: size, alloc_kb: alloc, free_kb: free };
    if (row[1] === 'Native Heap') {
      r.s.native_heap_usage = usage;
    } else {
      r.s.dalvik_heap_usage = usage;
    }
  }
}

/** App Summary: its Pss/Rss columns, its category rows, and the totals. */
function summaryLine(r: Reading, line: string): void {
  const { s } = r;
  const cols = line.indexOf('Pss(KB)');
  if (cols >= 0) {
    r.pssEnd = cols + 7;
    const rss = line.indexOf('Rss(KB)');
    r.rssEnd = rss >= 0 ? rss + 7 : -1;
    return;
  }
  const row = /^\s*([A-Za-z ]+?):/.exec(line);
  const key = row !== null ? SUMMARY_ROWS[row[1] ?? ''] : undefined;
  if (row !== null && key !== undefined) {
    const cat = s[key] as MemCategory;
    for (const n of numbersWithEnds(line, row[0].length)) {
      // Values are right-aligned under their column; pick the nearer column end.
      const toPss = r.pssEnd >= 0 ? Math.abs(n.end - r.pssEnd) : Infinity;
      const toRss = r.rssEnd >= 0 ? Math.abs(n.end - r.rssEnd) : Infinity;
      if (toRss < toPss) {
        cat.rss_kb = n.value;
      } else {
        cat.pss_kb = n.value;
      }
    }
    return;
  }
  const pss = /TOTAL PSS:\s+(\d+)/.exec(line) ?? /^\s*TOTAL:\s+(\d+)/.exec(line);
  if (pss !== null) {
    s.total_pss_kb = Number(pss[1]);
  }
  const rss = /TOTAL RSS:\s+(\d+)/.exec(line);
  if (rss !== null) {
    s.total_rss_kb = Number(rss[1]);
  }
  const swap = /TOTAL SWAP(?: \(KB\)| PSS):\s+(\d+)/.exec(line);
  if (swap !== null) {
    s.total_swap_kb = Number(swap[1]);
  }
}

const SECTION_TITLES: Record<string, Reading['section']> = {
  'App Summary': 'summary',
  Objects: 'objects',
  SQL: 'other',
  DATABASES: 'other',
  'Dalvik Details': 'other',
  'Asset Allocations': 'other',
};

/** Parses the dump; null when it names no process (`No process found for: …`). */
export function parseMeminfo(text: string): MeminfoSummary | null {
  const r: Reading = { s: emptySummary(), section: 'other', pssEnd: -1, rssEnd: -1, heapColumns: false };
  const { s } = r;
  let found = false;
  for (const line of text.split(/\r?\n/)) {
    const header = /\*\* MEMINFO in pid (\d+) \[([^\]]+)\] \*\*/.exec(line);
    if (header !== null) {
      if (found) {
        break; // a second process: report the first
      }
      found = true;
      s.pid = Number(header[1]);
      s.process = header[2] ?? null;
      r.section = 'table';
      continue;
    }
    const up = /Uptime: (\d+) Realtime: (\d+)/.exec(line);
    if (up !== null) {
      s.uptime_ms = Number(up[1]);
      s.realtime_ms = Number(up[2]);
      continue;
    }
    if (!found) {
      continue;
    }
    const t = line.trim();
    if (Object.hasOwn(SECTION_TITLES, t)) {
      r.section = SECTION_TITLES[t]!;
    } else if (r.section === 'table') {
      tableLine(r, line);
    } else if (r.section === 'summary') {
      summaryLine(r, line);
    } else if (r.section === 'objects') {
      const re = /([A-Za-z][A-Za-z ]*?):\s+(\d+)/g;
      for (let m = re.exec(line); m !== null; m = re.exec(line)) {
        s.objects[(m[1] ?? '').trim()] = Number(m[2]);
      }
    }
  }
  return found ? s : null;
}
