/**
 * A file format: `<data dir>/debug-sessions/<id>.json` (one debug session) and `index.json` beside
 * the session files (one summary per session, what list_debug_sessions and the default comparison
 * read without opening every file). Both are written by whichever droidbus process recorded the
 * change (standalone or host), under one lock, atomically. The bus carries the session pieces
 * declared here as they are (`src/bus/messages/sessions.ts` re-exports them), so a change here is a
 * change of the files: keep SESSION_FILE_VERSION's files loading (`debug-sessions.test.ts`).
 */
import { z } from 'zod';
import { buildFileHashSchema, resolvedDependenciesSchema } from './build-record.js';
import { installRecordSchema } from './install-record.js';
import { originSchema } from './origin.js';
import { uiStepSchema } from './ui-step.js';

/** The files' format version; the bus carries the session pieces below as they are. */
export const SESSION_FILE_VERSION = 1;

export const crashKindSchema = z.enum(['java', 'native', 'anr', 'js']);

export const sessionStateSchema = z.enum(['open', 'closed', 'superseded', 'ended', 'idle']);
export type SessionState = z.infer<typeof sessionStateSchema>;

/** How a crash is tied to the install it happened under. */
export const attributionSchema = z.object({
  method: z.enum(['install_record', 'unattributed']),
  /** True when the device confirmed it: the crashed process started after the install, or the APK hash still matches. */
  verified: z.boolean(),
  reason: z.string(),
});
export type Attribution = z.infer<typeof attributionSchema>;

/** Where a build's sources came from; null fields were not recorded by that build. */
export const buildSourceSchema = z.object({
  commit: z.string().nullable(),
  branch: z.string().nullable(),
  /** null when git could not say (no repository). */
  uncommitted_changes: z.boolean().nullable(),
  changed_files: z.array(z.string()),
  changed_files_truncated: z.boolean(),
  /** Why there is no commit (not a repository, git missing, no commits yet); null when there is one. */
  no_commit_because: z.string().nullable(),
  gradle_version: z.string().nullable(),
  jdk_version: z.string().nullable(),
  java_home: z.string().nullable(),
  agp_version: z.string().nullable(),
  /** Resolved dependency versions, when the build's output printed a dependency report. */
  dependencies: resolvedDependenciesSchema.nullable(),
  /** Build-file hashes taken when the build started; null for builds recorded before droidbus kept them. */
  build_files: z.array(buildFileHashSchema).nullable(),
});
export type BuildSource = z.infer<typeof buildSourceSchema>;

/** The build a session's install came from, as it was recorded when the session opened. */
export const sessionBuildSchema = z.object({
  id: z.string(),
  task: z.string(),
  module: z.string().nullable(),
  variant: z.string().nullable(),
  version_code: z.number().int().nullable(),
  version_name: z.string().nullable(),
  apk_sha256: z.string(),
  mapping_sha256: z.array(z.string()),
  map_ids: z.array(z.string()),
  ended_at: z.string(),
  source: buildSourceSchema.nullable(),
});
export type SessionBuild = z.infer<typeof sessionBuildSchema>;

const countsSchema = z.object({
  launches: z.number().int(),
  crashes: z.number().int(),
  anrs: z.number().int(),
  exits: z.number().int(),
  stops: z.number().int(),
  agent_actions: z.number().int(),
  /** Timeline events recorded in all (kept and dropped). */
  events: z.number().int(),
});
export type SessionCounts = z.infer<typeof countsSchema>;

/** One line of list_debug_sessions. */
export const sessionSummarySchema = z.object({
  id: z.string(),
  state: sessionStateSchema,
  state_reason: z.string().nullable(),
  package: z.string(),
  device: z.string(),
  device_model: z.string().nullable(),
  avd_name: z.string().nullable(),
  project_root: z.string().nullable(),
  module: z.string().nullable(),
  variant: z.string().nullable(),
  /** `build b… :app demoDebug`, `no build record` (the build left the history), or `unattributed` (no build matched the APK). */
  build_label: z.string(),
  build_id: z.string().nullable(),
  apk_sha256: z.string(),
  opened_at: z.string(),
  closed_at: z.string().nullable(),
  last_event_at: z.string(),
  recorded_by: z.enum(['standalone', 'host']),
  kept: z.boolean(),
  counts: countsSchema,
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

/** What one timeline event carries besides its kind and summary. */
export const timelineEventSchema = z.object({
  seq: z.number().int(),
  /** Host time, ISO. */
  at: z.string(),
  kind: z.enum([
    'install',
    'launch',
    'crash',
    'anr',
    'exit',
    'stop',
    'agent_action',
    'device_gone',
    'device_back',
    'state',
    'network',
  ]),
  /** Who did it; null for what the app or the device did by itself. */
  by: originSchema.nullable(),
  summary: z.string(),
  launch: z
    .object({
      device: z.string(),
      activity: z.string().nullable(),
      restart: z.boolean(),
      total_ms: z.number().nullable(),
      wait_ms: z.number().nullable(),
      displayed_ms: z.number().nullable(),
      launch_state: z.string().nullable(),
    })
    .optional(),
  action: z
    .object({
      tool: z.string(),
      kind: z.enum(['read', 'write', 'destructive', 'openWorld']),
      success: z.boolean(),
      status: z.string(),
      duration_ms: z.number(),
      serial: z.string(),
      /** What a UI call did, in Maestro's terms; absent in sessions recorded before issue 59. */
      steps: z.array(uiStepSchema).optional(),
    })
    .optional(),
  exit: z
    .object({
      reason: z.string(),
      reason_label: z.string().nullable(),
      subreason: z.string().nullable(),
      pid: z.number().int().nullable(),
      timestamp: z.string().nullable(),
      status: z.number().int().nullable(),
      description: z.string().nullable(),
    })
    .optional(),
  stop: z.object({ clear_data: z.boolean() }).optional(),
  /** A request the network capture saw (issue 72). */
  network: z
    .object({
      id: z.string(),
      method: z.string(),
      url: z.string(),
      status: z.number().int().nullable(),
      duration_ms: z.number().nullable(),
      failure: z.string().nullable(),
    })
    .optional(),
});
export type TimelineEvent = z.infer<typeof timelineEventSchema>;
export type TimelineKind = TimelineEvent['kind'];

/** A crash or ANR with the log lines kept around it. */
export const crashRecordSchema = z.object({
  /** The seq of its timeline event. */
  seq: z.number().int(),
  at: z.string(),
  kind: crashKindSchema,
  /** Device time of its first line. */
  time: z.string(),
  pid: z.number().int(),
  group_id: z.string(),
  summary: z.string(),
  signature: z.string().nullable(),
  title: z.string().nullable(),
  attribution: attributionSchema,
  /** The kept lines: `lines_before` lines before the crash, then the crash's own. Emptied once pruned. */
  lines: z.array(z.string()),
  lines_before: z.number().int(),
  truncated: z.boolean(),
  /** Identifies the crash across processes that both stream the device (recorded once). */
  key: z.string(),
});
export type CrashRecord = z.infer<typeof crashRecordSchema>;

export const sessionFileSchema = z.object({
  version: z.literal(SESSION_FILE_VERSION),
  id: z.string(),
  state: sessionStateSchema,
  state_reason: z.string().nullable(),
  device: z.string(),
  package: z.string(),
  device_model: z.string().nullable(),
  avd_name: z.string().nullable(),
  project_root: z.string().nullable(),
  module: z.string().nullable(),
  variant: z.string().nullable(),
  opened_at: z.string(),
  closed_at: z.string().nullable(),
  last_event_at: z.string(),
  recorded_by: z.enum(['standalone', 'host']),
  /** The pid of the process that opened it. */
  recorder_pid: z.number().int(),
  /** Kept sessions are never pruned by retention. */
  kept: z.boolean(),
  install: installRecordSchema,
  build: sessionBuildSchema.nullable(),
  /** `recorded`: the install's build was in the history; `no_build_record`: it had left it; `unattributed`: no build matched the APK. */
  build_status: z.enum(['recorded', 'no_build_record', 'unattributed']),
  superseded_by: z.string().nullable(),
  /** When adb stopped listing the device (null while it is listed). */
  device_gone_since: z.string().nullable(),
  next_seq: z.number().int(),
  counts: countsSchema,
  /** Timeline events left out to stay within the per-session bounds. */
  dropped_events: z.number().int(),
  events: z.array(timelineEventSchema),
  crashes: z.array(crashRecordSchema),
  /** Exit records already added (timestamp, pid, reason), newest last, bounded. */
  exit_keys: z.array(z.string()),
});
export type SessionFile = z.infer<typeof sessionFileSchema>;

/** One session in index.json. */
export const indexEntrySchema = sessionSummarySchema.extend({
  /** A launch with a measured time was recorded (the default comparison's "good" side needs a launch). */
  has_measured_launch: z.boolean(),
});
export type IndexEntry = z.infer<typeof indexEntrySchema>;

export const indexFileSchema = z.object({
  version: z.literal(SESSION_FILE_VERSION),
  sessions: z.array(indexEntrySchema),
});
export type IndexFile = z.infer<typeof indexFileSchema>;
