/**
 * The rules of one debug session, as pure functions over its file: opening it with its install
 * event, appending events within the bounds (agent actions and the rest bounded apart, the oldest
 * out first and counted in `dropped_events`), crashes with their kept lines (deduplicated, so two
 * processes streaming the same device record a crash once), state changes, the summary the
 * index keeps, and the snapshot of the build an install came from.
 */
import type { InstallRecord } from '../../bus/messages/app-events.js';
import type { BuildRecord } from '../../bus/messages/build.js';
import { SESSION_LIMITS, type SessionBuild, type SessionState } from '../../bus/messages/sessions.js';
import type {
  CrashRecord,
  IndexEntry,
  SessionFile,
  TimelineEvent,
} from '../../store/formats/debug-session.js';
import { SESSION_FILE_VERSION } from '../../store/formats/debug-session.js';
import { describeActor } from './describe-actor.js';

/** An open session with no event for this long reads as idle. */
export const IDLE_AFTER_MS = 12 * 3600_000;
/** A session whose device has been gone this long is ended. */
export const DEVICE_GONE_END_MS = 24 * 3600_000;
/** An open or idle session with no event for this long is ended (retention). */
export const STALE_END_MS = 14 * 24 * 3600_000;

/** Exit records remembered per session to add each once. */
const MAX_EXIT_KEYS = 200;

/** A session's label for its build. */
export function buildLabel(s: Pick<SessionFile, 'build' | 'build_status' | 'install'>): string {
  if (s.build !== null) {
    return `build ${s.build.id}${s.build.module ? ` ${s.build.module}` : ''}${s.build.variant ? ` ${s.build.variant}` : ''}`;
  }
  return s.build_status === 'no_build_record' ? 'no build record' : 'unattributed';
}

/** A new session for an install, with its install event as seq 1. */
export function newSession(
  id: string,
  install: InstallRecord,
  build: SessionBuild | null,
  buildStatus: SessionFile['build_status'],
  now: number,
): SessionFile {
  const at = new Date(now).toISOString();
  const session: SessionFile = {
    version: SESSION_FILE_VERSION,
    id,
    state: 'open',
    state_reason: null,
    device: install.device,
    package: install.package,
    device_model: null,
    avd_name: null,
    project_root: install.project_root,
    module: build?.module ?? install.module,
    variant: build?.variant ?? install.variant,
    opened_at: at,
    closed_at: null,
    last_event_at: at,
    recorded_by: install.recorded_by,
    recorder_pid: process.pid,
    kept: false,
    install,
    build,
    build_status: buildStatus,
    superseded_by: null,
    device_gone_since: null,
    next_seq: 1,
    counts: { launches: 0, crashes: 0, anrs: 0, exits: 0, stops: 0, agent_actions: 0, events: 0 },
    dropped_events: 0,
    events: [],
    crashes: [],
    exit_keys: [],
  };
  const version =
    install.version_name ?? (install.version_code !== null ? String(install.version_code) : null);
  appendEvent(
    session,
    {
      kind: 'install',
      by: install.installed_by,
      summary: `installed ${install.package}${version ? ` ${version}` : ''} (apk ${install.apk_sha256.slice(0, 12)}, ${buildLabel(session)}) by ${describeActor(install.installed_by)}`,
    },
    now,
  );
  return session;
}

/** True while events are still added to the session. */
export function isLive(s: Pick<SessionFile, 'state'>): boolean {
  return s.state === 'open' || s.state === 'idle';
}

/** The state as readers see it: an open session without events for IDLE_AFTER_MS is idle. */
export function effectiveState(
  s: Pick<SessionFile, 'state' | 'last_event_at'> | Pick<IndexEntry, 'state' | 'last_event_at'>,
  now: number,
): SessionState {
  if (s.state === 'open' && now - Date.parse(s.last_event_at) > IDLE_AFTER_MS) {
    return 'idle';
  }
  return s.state;
}

function bump(s: SessionFile, kind: TimelineEvent['kind']): void {
  const c = s.counts;
  c.events++;
  switch (kind) {
    case 'launch':
      c.launches++;
      break;
    case 'crash':
      c.crashes++;
      break;
    case 'anr':
      c.anrs++;
      break;
    case 'exit':
      c.exits++;
      break;
    case 'stop':
      c.stops++;
      break;
    case 'agent_action':
      c.agent_actions++;
      break;
    case 'install':
    case 'network':
    case 'device_gone':
    case 'device_back':
    case 'state':
      break;
    default: {
      const never: never = kind;
      throw new Error(`unknown event kind ${String(never)}`);
    }
  }
}

/** Drops the oldest events past the bounds (agent actions and the rest apart; the install stays). */
/** The timeline's buckets, each bounded on its own: agent actions, requests, and the rest. */
const BUCKETS: { has: (k: TimelineEvent['kind']) => boolean; limit: number }[] = [
  { has: (k) => k === 'agent_action', limit: SESSION_LIMITS.maxAgentEventsPerSession },
  // A chatty app's requests never push its launches and crashes out.
  { has: (k) => k === 'network', limit: SESSION_LIMITS.maxNetworkEventsPerSession },
  { has: (k) => k !== 'agent_action' && k !== 'network', limit: SESSION_LIMITS.maxEventsPerSession },
];

function enforceBounds(s: SessionFile): void {
  for (const bucket of BUCKETS) {
    let count = s.events.filter((e) => bucket.has(e.kind)).length;
    while (count > bucket.limit) {
      // The install that opened the session stays.
      const i = s.events.findIndex((e) => bucket.has(e.kind) && e.kind !== 'install');
      if (i < 0) {
        break;
      }
      s.events.splice(i, 1);
      count--;
      s.dropped_events++;
    }
  }
}

/** Appends an event (seq assigned) and returns it. An idle session becomes open again. */
export function appendEvent(
  s: SessionFile,
  event: Omit<TimelineEvent, 'seq' | 'at'>,
  now: number,
): TimelineEvent {
  const at = new Date(now).toISOString();
  const full: TimelineEvent = { seq: s.next_seq++, at, ...event };
  s.events.push(full);
  bump(s, event.kind);
  s.last_event_at = at;
  if (s.state === 'idle' && event.kind !== 'state') {
    s.state = 'open';
    s.state_reason = null;
  }
  enforceBounds(s);
  return full;
}

/** Moves the session to another state with a timeline event saying why. */
export function setState(s: SessionFile, state: SessionState, reason: string, now: number): void {
  if (s.state === state) {
    return;
  }
  const from = s.state;
  s.state = state;
  s.state_reason = reason;
  if (state === 'closed' || state === 'superseded' || state === 'ended') {
    s.closed_at = new Date(now).toISOString();
  }
  appendEvent(s, { kind: 'state', by: null, summary: `${from} → ${state}: ${reason}` }, now);
}

/**
 * What time does to a live session: ended when its device has been gone for DEVICE_GONE_END_MS or
 * nothing happened for STALE_END_MS, idle after IDLE_AFTER_MS (without a timeline event: being idle
 * is the absence of events). Returns true when it changed.
 */
export function ageSession(s: SessionFile, now: number): boolean {
  if (!isLive(s)) {
    return false;
  }
  const quiet = now - Date.parse(s.last_event_at);
  if (s.device_gone_since !== null && now - Date.parse(s.device_gone_since) >= DEVICE_GONE_END_MS) {
    setState(s, 'ended', `the device has been gone since ${s.device_gone_since}`, now);
    return true;
  }
  if (quiet >= STALE_END_MS) {
    setState(s, 'ended', `retention: no event for ${Math.round(STALE_END_MS / 86_400_000)} days`, now);
    return true;
  }
  if (s.state === 'open' && quiet > IDLE_AFTER_MS) {
    s.state = 'idle';
    s.state_reason = `no event for ${Math.round(IDLE_AFTER_MS / 3_600_000)} hours`;
    return true;
  }
  return false;
}

/** What a crash brings to its session. */
export type NewCrash = Omit<CrashRecord, 'seq' | 'at'>;

/** Adds a crash or ANR (once per key) with its timeline event; false when it was already recorded. */
export function addCrash(s: SessionFile, crash: NewCrash, now: number): boolean {
  if (s.crashes.some((c) => c.key === crash.key)) {
    return false;
  }
  const event = appendEvent(
    s,
    {
      kind: crash.kind === 'anr' ? 'anr' : 'crash',
      by: null,
      summary: `${crash.kind === 'anr' ? 'ANR' : crash.kind === 'native' ? 'native crash' : crash.kind === 'js' ? 'JavaScript error' : 'crash'} (pid ${crash.pid}): ${crash.summary}`,
    },
    now,
  );
  s.crashes.push({ ...crash, seq: event.seq, at: event.at });
  while (s.crashes.length > SESSION_LIMITS.maxCrashesPerSession) {
    s.crashes.shift();
  }
  // Only the newest crashes keep their lines: the file stays bounded however often the app crashes.
  for (let i = 0; i < s.crashes.length - SESSION_LIMITS.maxCrashCaptures; i++) {
    const old = s.crashes[i]!;
    if (old.lines.length > 0) {
      old.lines = [];
      old.lines_before = 0;
    }
  }
  return true;
}

/** Remembers an exit record's key; false when it was added before. */
export function noteExitKey(s: SessionFile, key: string): boolean {
  if (s.exit_keys.includes(key)) {
    return false;
  }
  s.exit_keys.push(key);
  if (s.exit_keys.length > MAX_EXIT_KEYS) {
    s.exit_keys.splice(0, s.exit_keys.length - MAX_EXIT_KEYS);
  }
  return true;
}

/** The index's summary of a session. */
export function summarize(s: SessionFile): IndexEntry {
  return {
    id: s.id,
    state: s.state,
    state_reason: s.state_reason,
    package: s.package,
    device: s.device,
    device_model: s.device_model,
    avd_name: s.avd_name,
    project_root: s.project_root,
    module: s.module,
    variant: s.variant,
    build_label: buildLabel(s),
    build_id: s.build?.id ?? s.install.build_id,
    apk_sha256: s.install.apk_sha256,
    opened_at: s.opened_at,
    closed_at: s.closed_at,
    last_event_at: s.last_event_at,
    recorded_by: s.recorded_by,
    kept: s.kept,
    counts: { ...s.counts },
    has_measured_launch: s.events.some(
      (e) =>
        e.kind === 'launch' &&
        e.launch !== undefined &&
        (e.launch.total_ms !== null || e.launch.displayed_ms !== null),
    ),
  };
}

/** The build of an install, as a session keeps it. */
export function buildSnapshot(record: BuildRecord, install: InstallRecord): SessionBuild {
  const apk = record.apks.find((a) => a.sha256 === install.apk_sha256);
  const variant = apk?.variant ?? record.variant;
  const mappings = record.mapping_files.filter(
    (m) => m.variant === null || variant === null || m.variant === variant,
  );
  const git = record.provenance.git;
  return {
    id: record.id,
    task: record.task,
    module: apk?.module ?? record.module,
    variant,
    version_code: apk?.version_code ?? install.version_code,
    version_name: apk?.version_name ?? install.version_name,
    apk_sha256: install.apk_sha256,
    mapping_sha256: mappings.map((m) => m.sha256),
    map_ids: mappings.flatMap((m) => (m.map_id !== null ? [m.map_id] : [])),
    ended_at: record.ended_at,
    source: {
      commit: git?.commit ?? null,
      branch: git?.branch ?? null,
      uncommitted_changes: git?.dirty ?? null,
      changed_files: git?.changed_files ?? [],
      changed_files_truncated: git?.changed_files_truncated ?? false,
      no_commit_because: git === null ? (record.provenance.git_reason ?? 'not recorded') : null,
      gradle_version: record.gradle_version,
      jdk_version: record.jdk_version ?? null,
      java_home: record.java_home,
      agp_version: record.agp_version,
      dependencies: record.dependencies ?? null,
      build_files: record.build_files ?? null,
    },
  };
}
