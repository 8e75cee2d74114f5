/**
 * What the session tools read, computed from the index and the session files: the filtered list
 * (newest first), and one session with a page of its timeline, its newest crashes and one crash's
 * kept lines. Pure over what it is given; states are as readers see them (idle after 12 h).
 */
import type { PayloadOf, ResponseOf } from '../../bus/registry.js';
import type { SessionSummary } from '../../bus/messages/sessions.js';
import { SESSION_LIMITS } from '../../bus/messages/sessions.js';
import type { IndexEntry, SessionFile, TimelineKind } from '../../store/formats/debug-session.js';
import { describeActor } from './describe-actor.js';
import { effectiveState, summarize } from './session-model.js';

/** An index entry as the tools show it (the effective state, no internal fields). */
export function toSummary(e: IndexEntry, now: number): SessionSummary {
  const { has_measured_launch: _measured, ...summary } = e;
  return { ...summary, state: effectiveState(e, now), counts: { ...e.counts } };
}

/** Who did what nobody asked for: the device came or went, droidbus changed a state, the app did the rest. */
function byItself(kind: TimelineKind): string {
  return kind === 'device_gone' || kind === 'device_back'
    ? 'the device'
    : kind === 'state'
      ? 'droidbus'
      : 'the app';
}

/** Newest first: by opened time, then id (ids sort by time too). */
function newestFirst(a: IndexEntry, b: IndexEntry): number {
  return a.opened_at < b.opened_at ? 1 : a.opened_at > b.opened_at ? -1 : a.id < b.id ? 1 : -1;
}

/** list_debug_sessions. */
export function listSessions(
  entries: readonly IndexEntry[],
  p: PayloadOf<'sessions.list'>,
  now: number,
  streaming: string[],
): ResponseOf<'sessions.list'> {
  const matched = entries
    .filter((e) => p.package === undefined || e.package === p.package)
    .filter((e) => p.device === undefined || e.device === p.device || e.avd_name === p.device)
    .filter((e) => p.state === undefined || effectiveState(e, now) === p.state)
    .filter((e) => !p.only_crashing || e.counts.crashes + e.counts.anrs > 0)
    .sort(newestFirst);
  return {
    sessions: matched.slice(0, p.limit).map((e) => toSummary(e, now)),
    matched: matched.length,
    total: entries.length,
    streaming,
  };
}

/** get_debug_session; `capture_seq` that names no crash of the session is INVALID for the caller. */
export function sessionDetail(
  s: SessionFile,
  p: PayloadOf<'sessions.get'>,
  now: number,
  streaming: boolean,
): ResponseOf<'sessions.get'> | { error: string } {
  const summary = toSummary(summarize(s), now);
  const before = p.before_seq ?? Number.POSITIVE_INFINITY;
  const older = s.events.filter((e) => e.seq < before);
  const page = p.max_events === 0 ? [] : older.slice(-p.max_events);
  const first = page[0] ?? null;
  const hasOlder = first !== null && older.length > page.length;
  const crashes = s.crashes.slice(-SESSION_LIMITS.maxCrashesReturned).reverse();
  let capture: ResponseOf<'sessions.get'>['capture'] = null;
  if (p.capture_seq !== undefined) {
    const c = s.crashes.find((x) => x.seq === p.capture_seq);
    if (c === undefined) {
      return {
        error: `capture_seq ${p.capture_seq} is not a crash or ANR of ${s.id}; its crashes have seq ${
          s.crashes
            .slice(-10)
            .map((x) => x.seq)
            .join(', ') || '(none)'
        }`,
      };
    }
    const lines = c.lines.slice(-p.log_lines);
    capture = {
      seq: c.seq,
      kind: c.kind,
      summary: c.summary,
      lines,
      kept: c.lines.length,
      cut: lines.length < c.lines.length,
    };
  }
  const install = s.install;
  return {
    session: {
      ...summary,
      superseded_by: s.superseded_by,
      build: s.build,
      install: {
        at: install.installed_at,
        by: describeActor(install.installed_by),
        by_origin: install.installed_by,
        apk_path: install.apk_path,
        apk_sha256: install.apk_sha256,
        apk_size: install.apk_size,
        version_code: install.version_code,
        version_name: install.version_name,
        build_id: install.build_id,
        recorded_by: install.recorded_by,
      },
      dropped_events: s.dropped_events,
    },
    timeline: page.map((e) => ({
      seq: e.seq,
      at: e.at,
      kind: e.kind,
      by: e.by !== null ? describeActor(e.by) : byItself(e.kind),
      summary: e.summary,
    })),
    next_before_seq: hasOlder ? first.seq : null,
    crashes: crashes.map((c) => ({
      seq: c.seq,
      at: c.at,
      time: c.time,
      kind: c.kind,
      summary: c.summary,
      pid: c.pid,
      group_id: c.group_id,
      signature: c.signature,
      attribution: c.attribution,
      kept_lines: c.lines.length,
    })),
    crashes_truncated: s.crashes.length > SESSION_LIMITS.maxCrashesReturned,
    capture,
    logcat_streaming: streaming,
  };
}
