/**
 * `get_logcat_entries` over the store: the plain parameters (count, min_level, tag, text, package,
 * only_crashes, device_serial, since_seq, before_seq) ANDed with an optional Studio-syntax `query`. Scans from
 * the newest entry back and stops at `count` matches, so a query costs at most one pass.
 */
import type { LogEntry } from './logcat-types.js';
import { LEVEL_RANK } from './logcat-types.js';
import type { LogStore } from './log-store.js';
import {
  compileLogcatQuery,
  LogcatQueryError,
  parseLevelName,
  type EntryPredicate,
  type QueryContext,
} from './logcat-query.js';

/** Default and maximum `count`, as the reference defines them. */
export const DEFAULT_ENTRY_COUNT = 200;
export const MAX_ENTRY_COUNT = 10_000;

/** Parameters of an entry query (snake_case, as the tool receives them). */
export interface LogQueryParams {
  count?: number;
  /** A level letter or name (`E`, `error`, `warn` …): that level and above. */
  min_level?: string;
  /** Exact tag. */
  tag?: string;
  /** Case-insensitive substring of the message. */
  text?: string;
  /** Exact package. */
  package?: string;
  only_crashes?: boolean;
  device_serial?: string;
  /** Android Studio logcat query. */
  query?: string;
  /** Only entries stored after this seq (incremental reads). */
  since_seq?: number;
  /** Only entries stored before this seq (paging back from an answer's oldest). */
  before_seq?: number;
}

/** The answer to an entry query. */
export interface LogQueryResult {
  /** Matching entries, oldest first (the newest `count` of them). */
  entries: LogEntry[];
  /** True when older matches may exist beyond `count`. */
  has_more: boolean;
  /** Entries examined. */
  scanned: number;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Builds the predicate for the parameters; throws LogcatQueryError on invalid ones. */
export function compileLogFilter(params: LogQueryParams, ctx: QueryContext = {}): EntryPredicate | null {
  const preds: EntryPredicate[] = [];
  if (params.min_level !== undefined) {
    const lv = parseLevelName(params.min_level);
    if (lv === null) {
      throw new LogcatQueryError(
        `invalid min_level '${params.min_level}' (use V, D, I, W, E, F or a level name)`,
      );
    }
    const min = LEVEL_RANK[lv];
    if (min > LEVEL_RANK.V) {
      preds.push((e) => LEVEL_RANK[e.level] >= min);
    }
  }
  if (params.tag !== undefined) {
    const tag = params.tag;
    preds.push((e) => e.tag === tag);
  }
  if (params.package !== undefined) {
    const pkg = params.package;
    preds.push((e) => e.package === pkg);
  }
  if (params.device_serial !== undefined) {
    const d = params.device_serial;
    preds.push((e) => e.device === d);
  }
  if (params.only_crashes === true) {
    preds.push((e) => e.crash !== null);
  }
  if (params.text !== undefined && params.text.length > 0) {
    const re = new RegExp(escapeRegExp(params.text), 'i');
    preds.push((e) => re.test(e.message));
  }
  if (params.query !== undefined && params.query.trim().length > 0) {
    const q = compileLogcatQuery(params.query, ctx);
    if (q !== null) {
      preds.push(q);
    }
  }
  if (preds.length === 0) {
    return null;
  }
  if (preds.length === 1) {
    return preds[0] ?? null;
  }
  return (e) => {
    for (const p of preds) {
      if (!p(e)) {
        return false;
      }
    }
    return true;
  };
}

/** The index of the newest entry whose seq is below `seq` (-1 if none): seqs rise with the index. */
function lastBefore(store: LogStore, seq: number): number {
  let lo = 0;
  let hi = store.size - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const e = store.at(mid);
    if (e !== undefined && e.seq < seq) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** Runs an entry query against the store. Throws LogcatQueryError for invalid parameters. */
export function queryLogs(store: LogStore, params: LogQueryParams, ctx: QueryContext = {}): LogQueryResult {
  const count = Math.max(1, Math.min(MAX_ENTRY_COUNT, Math.floor(params.count ?? DEFAULT_ENTRY_COUNT)));
  const pred = compileLogFilter(params, ctx);
  const since = params.since_seq ?? 0;
  const out: LogEntry[] = [];
  let i = store.size - 1;
  if (params.before_seq !== undefined) {
    i = lastBefore(store, params.before_seq);
  }
  let scanned = 0;
  for (; i >= 0; i--) {
    const e = store.at(i);
    if (e === undefined) {
      continue;
    }
    if (e.seq <= since) {
      break;
    }
    scanned++;
    if (pred === null || pred(e)) {
      out.push(e);
      if (out.length >= count) {
        i--;
        break;
      }
    }
  }
  const hasMore = out.length >= count && i >= 0 && (store.at(i)?.seq ?? 0) > since;
  out.reverse();
  return { entries: out, has_more: hasMore, scanned };
}
