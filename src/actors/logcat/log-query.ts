/**
 * `get_logcat_entries` over the store: the plain parameters (count, min_level, tag, text, package,
 * only_crashes, device_serial, since_seq, before_seq) ANDed with an optional Studio-syntax `query`. Scans from
 * the newest entry back and stops at `count` matches, so a query costs at most one pass.
 */
import type { LogEntry } from './logcat-types.js';
import { LEVEL_RANK } from './logcat-types.js';
import type { LogStore } from './log-store.js';
import {
  compileLogcatQueryPlan,
  LogcatQueryError,
  parseLevelName,
  type EntryPredicate,
  type QueryContext,
  type QueryPlan,
} from './logcat-query.js';
import { escapeRegExp } from '../../util/escape-regexp.js';
import { FairSlices, SLICE_MS } from './fair-slices.js';

/** A query that runs longer (its waits for other sessions' slices included) answers what it found, saying where it stopped. */
export const QUERY_DEADLINE_MS = 2_000;
/**
 * The regex work one query may do, in nanoseconds: each regex term's worst-case cost per byte (its
 * program's instructions priced by kind, regex-cost.ts, measured by bench/regex-cost.ts) times the
 * bytes of the lines the query's cheap terms let through and its literal prefilter passes. A query
 * whose bound could not finish within its deadline even alone on the thread is refused before RE2
 * runs; whatever an admitted one costs, it holds the thread for one slice at a time (fair-slices.ts).
 */
export const REGEX_BUDGET_NS = QUERY_DEADLINE_MS * 1_000_000;

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
  /** Set when the scan stopped before it was done (the deadline): where, and what to do. */
  stopped?: string;
}

function all(preds: EntryPredicate[]): EntryPredicate | null {
  if (preds.length === 0) {
    return null;
  }
  if (preds.length === 1) {
    return preds[0]!;
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

/**
 * Builds the filter of the parameters and the query, the cheap terms first, with what bounds its
 * regex work (`QueryPlan`); throws LogcatQueryError on invalid ones.
 */
export function compileLogPlan(params: LogQueryParams, ctx: QueryContext = {}): QueryPlan | null {
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
  const query =
    params.query !== undefined && params.query.trim().length > 0
      ? compileLogcatQueryPlan(params.query, ctx)
      : null;
  const pred = all(query ? [...preds, query.pred] : preds);
  const cheap = all(query?.cheap ? [...preds, query.cheap] : preds);
  return pred === null ? null : { pred, cheap, regexes: query?.regexes ?? [] };
}

/** Builds the predicate for the parameters; throws LogcatQueryError on invalid ones. */
export function compileLogFilter(params: LogQueryParams, ctx: QueryContext = {}): EntryPredicate | null {
  return compileLogPlan(params, ctx)?.pred ?? null;
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

/** Says when the scan has had its slice: checked after every entry (a regex may take ms on one line). */
export type SliceDue = () => boolean;

const never: SliceDue = () => false;

/**
 * The store's entries from index `from` back to `since` (exclusive), newest first, with `'chunk'`
 * after the entry at which `due` says the slice is over.
 */
function* entriesBack(
  store: LogStore,
  from: number,
  since: number,
  due: SliceDue,
): Generator<LogEntry | 'chunk'> {
  let i = from;
  while (i >= 0) {
    const e = store.at(i);
    if (e === undefined || e.seq <= since) {
      return;
    }
    yield e;
    if (due()) {
      yield 'chunk';
      // The store may have grown or evicted meanwhile: find the entry after this one again.
      i = lastBefore(store, e.seq);
    } else {
      i--;
    }
  }
}

/** The worst-case regex work of a plan over the entries it would scan, counted up to just past the budget. */
function* regexBound(
  store: LogStore,
  plan: QueryPlan,
  from: number,
  since: number,
  due: SliceDue,
): Generator<'chunk', number> {
  let work = 0;
  for (const e of entriesBack(store, from, since, due)) {
    if (e === 'chunk') {
      yield e;
      continue;
    }
    if (plan.cheap !== null && !plan.cheap(e)) {
      continue;
    }
    for (const { rx, get } of plan.regexes) {
      const text = get(e);
      if (rx.mayMatch(text)) {
        work += rx.costPerByte * text.length;
      }
    }
    if (work > REGEX_BUDGET_NS) {
      return work;
    }
  }
  return work;
}

/**
 * An entry query as steps: the regex bound first (refused when over the budget), then the scan from
 * the newest entry back, stopping at `count` matches; `'chunk'` whenever `due` says a slice is over,
 * where a caller may give the thread up or stop at its deadline.
 */
function* querySteps(
  store: LogStore,
  params: LogQueryParams,
  ctx: QueryContext,
  state: { out: LogEntry[]; scanned: number; lastSeq: number | null },
  due: SliceDue,
): Generator<'chunk', LogQueryResult> {
  const count = Math.max(1, Math.min(MAX_ENTRY_COUNT, Math.floor(params.count ?? DEFAULT_ENTRY_COUNT)));
  const plan = compileLogPlan(params, ctx);
  const since = params.since_seq ?? 0;
  const from = params.before_seq !== undefined ? lastBefore(store, params.before_seq) : store.size - 1;
  if (plan !== null && plan.regexes.length > 0) {
    const bound = yield* regexBound(store, plan, from, since, due);
    if (bound > REGEX_BUDGET_NS) {
      throw new LogcatQueryError(
        `the query's regular expressions could take more than ${REGEX_BUDGET_NS / 1e6} ms of regex work (at worst ${costs(plan)} ns per byte over the lines they would read), more than one query may: narrow the lines first with a time window (age:5m), tag:, pid:, level: or package:, or since_seq, or make the pattern smaller`,
      );
    }
  }
  let more = false;
  for (const e of entriesBack(store, from, since, due)) {
    if (e === 'chunk') {
      yield e;
      continue;
    }
    if (state.out.length >= count) {
      more = true;
      break;
    }
    state.scanned++;
    state.lastSeq = e.seq;
    if (plan === null || plan.pred(e)) {
      state.out.push(e);
    }
  }
  return { entries: [...state.out].reverse(), has_more: more, scanned: state.scanned };
}

/** Each regex term's worst-case cost per byte, for the refusal. */
function costs(plan: QueryPlan): string {
  return plan.regexes.map(({ rx }) => Math.round(rx.costPerByte).toLocaleString('en')).join(' + ');
}

/** Runs an entry query against the store, in one go. Throws LogcatQueryError for invalid parameters. */
export function queryLogs(store: LogStore, params: LogQueryParams, ctx: QueryContext = {}): LogQueryResult {
  const steps = querySteps(store, params, ctx, { out: [], scanned: 0, lastSeq: null }, never);
  for (;;) {
    const step = steps.next();
    if (step.done === true) {
      return step.value;
    }
  }
}

/** Where a yielding query takes its turns: the actor's shared scheduler, and whose turn it is. */
export interface SliceTurns {
  slices: FairSlices;
  /** The session asking (turns go round the sessions). */
  session: string;
  /** A slice's length (default SLICE_MS). */
  sliceMs?: number;
}

/**
 * The same query in slices of at most SLICE_MS, each after a turn (`turns`: other sessions' scans
 * and every other request are served between them), answering what it found, saying where it
 * stopped, at its deadline.
 */
export async function queryLogsYielding(
  store: LogStore,
  params: LogQueryParams,
  ctx: QueryContext = {},
  deadlineMs = QUERY_DEADLINE_MS,
  turns: SliceTurns = { slices: new FairSlices(), session: '' },
): Promise<LogQueryResult> {
  const state = { out: [] as LogEntry[], scanned: 0, lastSeq: null as number | null };
  let sliceEnd = 0;
  const steps = querySteps(store, params, ctx, state, () => performance.now() >= sliceEnd);
  const started = performance.now();
  for (;;) {
    await turns.slices.turn(turns.session);
    sliceEnd = performance.now() + (turns.sliceMs ?? SLICE_MS);
    const step = steps.next();
    if (step.done === true) {
      return step.value;
    }
    if (performance.now() - started > deadlineMs) {
      return {
        entries: [...state.out].reverse(),
        has_more: true,
        scanned: state.scanned,
        stopped: `stopped after ${deadlineMs} ms at seq ${state.lastSeq ?? 'none'} (${state.scanned} entries examined): narrow the query (age:5m, tag:, pid:, level:) or page back with before_seq`,
      };
    }
  }
}
