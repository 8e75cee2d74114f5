import { z } from 'zod';
import { defineRequest } from '../contract.js';
import { originSchema } from '../origin.js';
import { crashKindSchema, packageNameSchema } from './logcat.js';
import { MAX_STEPS_PER_ACTION, uiStepSchema } from '../../store/formats/ui-step.js';
import {
  attributionSchema,
  buildSourceSchema,
  sessionBuildSchema,
  sessionStateSchema,
  sessionSummarySchema,
  timelineEventSchema,
  type Attribution,
  type BuildSource,
  type SessionBuild,
  type SessionCounts,
  type SessionState,
  type SessionSummary,
} from '../../store/formats/debug-session.js';

/**
 * Requests of the sessions actor: debug sessions (one per install per device and package, with
 * its timeline, crashes and the log lines around them, exits and agent actions), read by the
 * session tools, and the agent actions every frontend reports after a device tool call.
 */

/** Retention and answer bounds (the reference's names where it has them). */
export const SESSION_LIMITS = {
  /** Agent actions kept per session (MAX_AGENT_EVENTS_PER_SESSION). */
  maxAgentEventsPerSession: 500,
  /** Other timeline events kept per session (install, launches, crashes, exits, stops, device and state changes). */
  maxEventsPerSession: 1_000,
  /** Requests a network capture saw kept per session (the newest). */
  maxNetworkEventsPerSession: 300,
  /** Timeline events one get_debug_session returns at most (MAX_EVENTS_RETURNED). */
  maxEventsReturned: 500,
  /** Crashes and ANRs get_debug_session lists (MAX_AGENT_CRASHES). */
  maxCrashesReturned: 20,
  /** Crashes kept per session; the newest `maxCrashCaptures` keep their log lines. */
  maxCrashesPerSession: 200,
  maxCrashCaptures: 20,
  /** Log lines kept before a crash (its own lines are kept too, up to maxCrashLines). */
  linesBeforeCrash: 100,
  maxCrashLines: 400,
  /** Crash signatures compare_debug_sessions lists per side (MAX_COMPARED_SIGNATURES). */
  maxComparedSignatures: 20,
  /** Sessions kept in the data directory (the oldest that are not open go first). */
  maxSessions: 200,
  /** The sessions actor's mailbox: agent actions beyond it are dropped (MAX_PENDING_SESSION_EVENTS). */
  maxPendingEvents: 256,
} as const;

export const sessionIdSchema = z
  .string()
  .regex(/^ds-[0-9a-z]{6,40}$/, 'a debug session id as list_debug_sessions shows it (ds-…)')
  .describe('A debug session id from list_debug_sessions (ds-…)');

// What a debug-session file keeps of a session, carried on the bus as it is.
export { attributionSchema, buildSourceSchema, sessionBuildSchema, sessionStateSchema, sessionSummarySchema };
export type { Attribution, BuildSource, SessionBuild, SessionCounts, SessionState, SessionSummary };

export const timelineEntrySchema = z.object({
  seq: z.number().int(),
  at: z.string(),
  kind: z.string(),
  /** Who did it, in words (an agent, the person at the host, the app or device itself). */
  by: z.string(),
  summary: z.string(),
});

export const crashEntrySchema = z.object({
  seq: z.number().int(),
  at: z.string(),
  /** Device time of the crash's first line; '' when unknown. */
  time: z.string(),
  kind: crashKindSchema,
  summary: z.string(),
  pid: z.number().int(),
  group_id: z.string(),
  signature: z.string().nullable(),
  attribution: attributionSchema,
  /** Log lines kept with it (the lines before it and its own); 0 once pruned. */
  kept_lines: z.number().int(),
});

const installSchema = z.object({
  at: z.string(),
  /** Who installed it, in words. */
  by: z.string(),
  by_origin: originSchema,
  apk_path: z.string(),
  apk_sha256: z.string(),
  apk_size: z.number().int(),
  version_code: z.number().int().nullable(),
  version_name: z.string().nullable(),
  build_id: z.string().nullable(),
  recorded_by: z.enum(['standalone', 'host']),
});

export const sessionDetailSchema = sessionSummarySchema.extend({
  superseded_by: z.string().nullable(),
  build: sessionBuildSchema.nullable(),
  install: installSchema,
  dropped_events: z.number().int(),
});

/** One side of a launch comparison: the launch as the session file keeps it, with its event's seq and time. */
const launchSideSchema = timelineEventSchema.shape.launch
  .unwrap()
  .extend({ seq: z.number().int(), at: z.string() });

const signatureCountSchema = z.object({
  signature: z.string(),
  title: z.string(),
  kind: crashKindSchema,
  count: z.number().int(),
});

const diffSchema = z.object({ field: z.string(), from: z.unknown(), to: z.unknown() });

const provenanceSideSchema = z.object({
  build_id: z.string(),
  commit: z.string().nullable(),
  branch: z.string().nullable(),
  dirty: z.boolean().nullable(),
  changed_file_count: z.number().int(),
  no_commit_because: z.string().nullable(),
  gradle_version: z.string().nullable(),
  jdk_version: z.string().nullable(),
  agp_version: z.string().nullable(),
  dependencies: z.number().int().nullable(),
});

export const sessionsRequests = {
  /**
   * A device tool call an agent made (a tool that is not read-only and takes a device). Added to the
   * open sessions of that device (and of `package` when the call named one). Sent fire-and-forget by
   * the frontends; the actor's mailbox is the bounded queue.
   */
  'sessions.agent_action': defineRequest({
    actor: 'sessions',
    request: z.object({
      tool: z.string().max(100),
      kind: z.enum(['read', 'write', 'destructive', 'openWorld']),
      success: z.boolean(),
      /** The call's outcome: ok, tool_error, invalid_params, internal_error, cancelled. */
      status: z.string().max(40),
      duration_ms: z.number().min(0),
      /** The device parameter; null when the call left it out (the one online device is used, if exactly one). */
      serial: z.string().max(200).nullable(),
      package: z.string().max(255).nullable(),
      /** What a UI call did, in Maestro's terms (ui-step.ts); empty for the other tools. */
      steps: z.array(uiStepSchema).max(MAX_STEPS_PER_ACTION).default([]),
      actor: originSchema,
      at: z.string().max(40),
    }),
    response: z.object({
      /** The sessions it went into. */
      sessions: z.array(z.string()),
      serial: z.string().nullable(),
    }),
    timeoutMs: 30_000,
  }),
  /** Sessions newest first, filtered; `device` matches a serial or an AVD name. */
  'sessions.list': defineRequest({
    actor: 'sessions',
    request: z.object({
      limit: z.number().int().min(1).max(50).default(10),
      package: packageNameSchema.optional(),
      device: z.string().min(1).max(200).optional(),
      state: sessionStateSchema.optional(),
      only_crashing: z.boolean().default(false),
    }),
    response: z.object({
      sessions: z.array(sessionSummarySchema),
      matched: z.number().int(),
      total: z.number().int(),
      /** Devices whose logcat this droidbus streams now (crashes are recorded only from streamed devices). */
      streaming: z.array(z.string()),
    }),
    timeoutMs: 15_000,
  }),
  /** One session: its build, install, counts, a page of its timeline, its crashes, and one crash's kept lines. */
  /** A session's UI steps as a Maestro flow (src/flows/maestro-export.ts). */
  'sessions.export': defineRequest({
    actor: 'sessions',
    request: z.object({ session_id: sessionIdSchema }),
    response: z.object({
      session_id: z.string(),
      package: z.string(),
      yaml: z.string(),
      commands: z.number().int(),
      variables: z.array(z.object({ name: z.string(), field: z.string().nullable() })),
      left_out: z.array(z.string()),
      comments: z.array(z.string()),
    }),
    timeoutMs: 30_000,
  }),
  'sessions.get': defineRequest({
    actor: 'sessions',
    request: z.object({
      session_id: sessionIdSchema,
      max_events: z.number().int().min(0).max(SESSION_LIMITS.maxEventsReturned).default(100),
      before_seq: z.number().int().min(1).optional(),
      capture_seq: z.number().int().min(1).optional(),
      log_lines: z.number().int().min(1).max(1000).default(100),
    }),
    response: z.object({
      session: sessionDetailSchema,
      timeline: z.array(timelineEntrySchema),
      next_before_seq: z.number().int().nullable(),
      crashes: z.array(crashEntrySchema),
      crashes_truncated: z.boolean(),
      capture: z
        .object({
          seq: z.number().int(),
          kind: crashKindSchema,
          summary: z.string(),
          lines: z.array(z.string()),
          kept: z.number().int(),
          /** True when lines past `log_lines` (the oldest) were left out. */
          cut: z.boolean(),
        })
        .nullable(),
      /** Devices whose logcat this droidbus streams now. */
      logcat_streaming: z.boolean(),
    }),
    timeoutMs: 15_000,
  }),
  /** Two sessions side by side; without ids the newest working session against the first later crashing one. */
  'sessions.compare': defineRequest({
    actor: 'sessions',
    request: z.object({ from: sessionIdSchema.optional(), to: sessionIdSchema.optional() }),
    response: z.object({
      chosen_by: z.string().nullable(),
      from: sessionSummarySchema,
      to: sessionSummarySchema,
      differences: z.array(diffSchema),
      launch: z.object({
        from: launchSideSchema.nullable(),
        to: launchSideSchema.nullable(),
        comparable: z.boolean(),
        delta_ms: z.number().nullable(),
        note: z.string().nullable(),
      }),
      crashes: z.object({
        from: z.array(signatureCountSchema),
        to: z.array(signatureCountSchema),
        new_in_to: z.array(z.string()),
        gone_in_to: z.array(z.string()),
        truncated: z.boolean(),
      }),
      exits: z.object({
        from: z.record(z.string(), z.number().int()),
        to: z.record(z.string(), z.number().int()),
      }),
      provenance: z
        .object({
          from: provenanceSideSchema.nullable(),
          to: provenanceSideSchema.nullable(),
          same_commit: z.boolean().nullable(),
          differences: z.array(diffSchema),
          changed_build_files: z.array(
            z.object({ path: z.string(), change: z.enum(['changed', 'added', 'removed']) }),
          ),
          /** Modules whose resolved version differs (only when both builds recorded a dependency report). */
          dependency_changes: z.array(
            z.object({ module: z.string(), from: z.string().nullable(), to: z.string().nullable() }),
          ),
          notes: z.array(z.string()),
        })
        .nullable(),
      not_recorded: z.array(z.string()),
    }),
    timeoutMs: 15_000,
  }),
};
