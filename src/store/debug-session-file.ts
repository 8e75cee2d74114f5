/**
 * The shape of `<data dir>/debug-sessions/<id>.json` (one debug session) and of `index.json` beside
 * the session files (one summary per session, what list_debug_sessions and the default comparison
 * read without opening every file). Both are written by whichever droidbus process recorded the
 * change (standalone or host), under one lock, atomically.
 */
import { z } from 'zod';
import { installRecordSchema } from '../bus/messages/app-events.js';
import { crashKindSchema } from '../bus/messages/logcat.js';
import { originSchema } from '../bus/origin.js';
import {
  attributionSchema,
  sessionBuildSchema,
  sessionStateSchema,
  sessionSummarySchema,
} from '../bus/messages/sessions.js';

export const SESSION_FILE_VERSION = 1;

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
      kind: z.enum(['write', 'destructive', 'openWorld']),
      success: z.boolean(),
      status: z.string(),
      duration_ms: z.number(),
      serial: z.string(),
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

const countsSchema = sessionSummarySchema.shape.counts;

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
