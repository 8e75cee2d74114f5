import { z } from 'zod';
import { crashKindSchema } from '../../store/formats/debug-session.js';
import { defineEvent, defineRequest } from '../contract.js';
import { serialSchema } from './devices.js';
import { packageScopeSchema } from './project.js';
import { retraceOutcomeSchema } from './retrace.js';

export { frameStatsBlockSchema, gfxinfoWireSchema } from './gfxinfo.js';
export type { FrameStatsBlockWire, GfxInfoWire } from './gfxinfo.js';

/**
 * Requests and events of the logcat actor: the device streams, the bounded store and its queries,
 * crashes and their groups (the app dumps it also answers are in app.ts). Everything here is plain
 * data with bounded sizes.
 */

/** An Android application id, checked before it reaches anything (and quoted when it reaches a shell). */
export const packageNameSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(
    /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/,
    'an Android package name is dot-separated Java identifiers, e.g. com.example.app',
  )
  .describe('Android package name (application id), e.g. com.example.app');

export const logLevelSchema = z.enum(['V', 'D', 'I', 'W', 'E', 'F']);
// Crash kinds are kept in debug-session files too.
export { crashKindSchema };

const launchSchema = z.object({
  kind: z.enum(['displayed', 'fully_drawn']),
  package: z.string(),
  component: z.string(),
  activity: z.string(),
  ms: z.number(),
  total_ms: z.number().nullable(),
});

/** One stored logcat line as queries return it. */
export const logEntryWireSchema = z.object({
  seq: z.number().int(),
  /** Device time, `YYYY-MM-DD HH:MM:SS.mmm` in the host zone; '' when unknown. */
  time: z.string(),
  device: z.string().nullable(),
  pid: z.number().int(),
  tid: z.number().int(),
  level: logLevelSchema,
  tag: z.string(),
  message: z.string(),
  package: z.string().nullable(),
  category: z.string().nullable(),
  crash: crashKindSchema.nullable(),
  crash_group: z.string().nullable(),
  /** The JSON object or array the message carries, parsed (only when it has one). */
  json: z.unknown().optional(),
  /** A `Displayed` / `Fully drawn` launch time (only on such lines). */
  launch: launchSchema.optional(),
});
export type LogEntryWire = z.infer<typeof logEntryWireSchema>;

const throwableSchema = z.object({
  exception: z.string(),
  message: z.string().nullable(),
  frames: z.array(z.string()),
  /** The `... N more` count. */
  more: z.number().int(),
});

/** A crash read from the log, with its whole trace. */
/** A thread of an ANR's dump, as the crash answers give it (its top frames). */
export const anrThreadSchema = z.object({
  name: z.string().max(200),
  tid: z.number().int(),
  /** As ART prints it: Blocked, Waiting, TimedWaiting, Sleeping, Native, Runnable… */
  state: z.string().max(40),
  frames: z.array(z.string().max(1_000)).max(32),
  waiting_to_lock: z
    .object({ monitor: z.string().max(40), of: z.string().max(300), held_by: z.number().int().nullable() })
    .nullable(),
});

/** An ANR's threads, read from the report the device kept (`dumpsys dropbox`). */
export const anrStacksSchema = z.object({
  /** Where they were read: `dropbox data_app_anr <time>`. */
  source: z.string().max(200),
  main: anrThreadSchema,
  /** The thread holding the monitor the main thread waits to lock. */
  holder: anrThreadSchema.nullable(),
  /** The holder waits, in turn, for a monitor the main thread holds. */
  deadlock: z.boolean(),
});
export type AnrStacksWire = z.infer<typeof anrStacksSchema>;

export const crashWireSchema = z.object({
  group_id: z.string().nullable(),
  kind: crashKindSchema,
  /** One line: the group's title and the message. */
  summary: z.string(),
  device: z.string().nullable(),
  package: z.string().nullable(),
  process: z.string().nullable(),
  pid: z.number().int(),
  tid: z.number().int(),
  time: z.string(),
  /** Host time (epoch ms) when the crash was read completely. */
  received_at: z.number(),
  /** The requests a network capture saw in the minute before it, oldest first (`POST host/auth → 500, 80 ms`). */
  requests_before: z.array(z.string()).optional(),
  /** Store seq of its first line (0 when never stored). */
  seq: z.number().int(),
  thread: z.string().nullable(),
  exception: z.string().nullable(),
  message: z.string().nullable(),
  /** Java: top-level frames; native: backtrace lines. */
  frames: z.array(z.string()),
  /** Java: the `Caused by:` chain, outermost first. */
  causes: z.array(throwableSchema),
  suppressed: z.array(throwableSchema),
  signal: z.string().nullable(),
  signal_code: z.string().nullable(),
  fault_addr: z.string().nullable(),
  abort_message: z.string().nullable(),
  cause: z.string().nullable(),
  abi: z.string().nullable(),
  component: z.string().nullable(),
  /** The crash's lines as logcat printed them, joined: the whole stack and its `Caused by:` chain. */
  trace: z.string(),
  /** True when lines past the per-crash bound were left out. */
  truncated: z.boolean(),
  /** ANR: the main thread and what blocks it, when the device kept the report (also in `trace`). */
  anr: anrStacksSchema.optional(),
});
export type CrashWire = z.infer<typeof crashWireSchema>;

/** A group of identical crashes. */
export const crashGroupWireSchema = z.object({
  id: z.string(),
  kind: crashKindSchema,
  title: z.string(),
  signature: z.string(),
  count: z.number().int(),
  first_seen: z.number(),
  last_seen: z.number(),
  packages: z.array(z.string()),
  devices: z.array(z.string()),
});
export type CrashGroupWire = z.infer<typeof crashGroupWireSchema>;

export const streamStateSchema = z.enum(['starting', 'streaming', 'stopped']);

/** One device stream as stats and start/stop report it. */
export const streamInfoSchema = z.object({
  serial: z.string(),
  state: streamStateSchema,
  /** Why it stopped (`device disconnected`, `stopped by stop_logcat`, …); null while it runs. */
  reason: z.string().nullable(),
  started_at: z.number(),
  stopped_at: z.number().nullable(),
  /** Bytes and lines read from the device. */
  bytes: z.number(),
  lines: z.number(),
  entries: z.number(),
  /** Lines skipped as binary garbage, and lines cut short. */
  garbage: z.number(),
  truncated: z.number(),
  crashes: z.number(),
  /** Processes the pid → package map knows. */
  known_pids: z.number().int(),
  /** Lines of the device's buffer read before following it (null: started from now, or resumed). */
  buffer_lines: z.number().int().nullable(),
});
export type StreamInfo = z.infer<typeof streamInfoSchema>;

/** A read that waited for streams still reading their device's buffer (at most 8 s). */
export const bufferWaitSchema = z.object({
  waited_ms: z.number().int(),
  /** Devices whose stream had still not read its buffer when the read answered. */
  unread: z.array(z.string()),
});
export type BufferWait = z.infer<typeof bufferWaitSchema>;

const countedSchema = z.object({ name: z.string(), count: z.number() });

export const logStatsSchema = z.object({
  entries: z.number().int(),
  bytes: z.number(),
  max_entries: z.number().int(),
  max_bytes: z.number(),
  dropped: z.number(),
  received: z.number(),
  by_level: z.record(z.string(), z.number()),
  by_package: z.array(countedSchema),
  by_tag: z.array(countedSchema),
  by_device: z.array(countedSchema),
  crashes: z.object({
    total: z.number(),
    java: z.number(),
    native: z.number(),
    anr: z.number(),
    /** Uncaught JavaScript errors WebViews logged. */
    js: z.number(),
  }),
  lines_per_second: z.number(),
  oldest_ts: z.number(),
  newest_ts: z.number(),
  oldest_seq: z.number(),
  newest_seq: z.number(),
});

const byDevice = z.object({ serial: serialSchema });

/** The log lines around one crash, for a debug session to keep (see logcat.crash_context). */
export const crashContextSchema = z.object({
  /** False when the store no longer holds the crash (cleared, or evicted by newer lines). */
  found: z.boolean(),
  kind: crashKindSchema.nullable(),
  /** Device time of the crash's first line (`YYYY-MM-DD HH:MM:SS.mmm`); '' when unknown. */
  time: z.string(),
  /** The same as epoch ms (device clock, host zone assumed), 0 when unknown. */
  ts: z.number(),
  /** The device's lines just before the crash, oldest first, as `MM-DD HH:MM:SS.mmm PID TID L TAG: message`. */
  before: z.array(z.string()),
  /** The crash's own lines, in the same form. */
  lines: z.array(z.string()),
  /** True when the crash had more lines than were kept (the detector's bound or the request's). */
  truncated: z.boolean(),
  /** The group's signature and title. */
  signature: z.string().nullable(),
  title: z.string().nullable(),
  /** The `Start proc PID:PKG/…` line that started the crashed process, when the store still holds it. */
  process_start: z.object({ seq: z.number().int(), ts: z.number(), time: z.string() }).nullable(),
});
export type CrashContext = z.infer<typeof crashContextSchema>;

/** How a crash request asks for its crashes deobfuscated: the session's project, whose mappings are searched. */
const retraceAskSchema = z.object({ root: z.string().max(4096).nullable() });

export const logcatRequests = {
  /**
   * Starts streaming a device's logcat (no-op when it already streams): reads the device's buffer
   * to its end first (up to 8 s, unless from_now or resume), then follows; ready within 5 s more or fails.
   */
  'logcat.start': defineRequest({
    actor: 'logcat',
    request: byDevice.extend({
      from_now: z.boolean().default(false),
      /**
       * Carry on after the newest line the store holds of the device, reading what its buffer kept
       * since then (all of it when the store holds none): how a stream comes back after its device
       * left, or after the logcat actor or the host was replaced. Wins over from_now.
       */
      resume: z.boolean().default(false),
    }),
    response: z.object({ stream: streamInfoSchema, already_streaming: z.boolean() }),
    timeoutMs: 20_000,
  }),
  /** Stops one device's stream, or every stream when `serial` is left out. */
  'logcat.stop': defineRequest({
    actor: 'logcat',
    request: z.object({ serial: serialSchema.optional() }),
    response: z.object({ stopped: z.array(streamInfoSchema) }),
    timeoutMs: 10_000,
  }),
  /** Empties droidbus's store (one device's lines and crashes, or everything with the crash groups). */
  'logcat.clear': defineRequest({
    actor: 'logcat',
    request: z.object({ serial: serialSchema.optional() }),
    response: z.object({ cleared_entries: z.number().int(), cleared_crashes: z.number().int() }),
    timeoutMs: 10_000,
  }),
  /** Stored lines matching the filters (ANDed), the newest `count`, oldest first. INVALID on a bad query. */
  'logcat.entries': defineRequest({
    actor: 'logcat',
    request: z.object({
      /** Default: settings mcp.logcat_default_count (200). */
      count: z.number().int().min(1).max(10_000).optional(),
      min_level: z.string().max(16).optional(),
      tag: z.string().max(1000).optional(),
      text: z.string().max(1000).optional(),
      package: z.string().max(255).optional(),
      only_crashes: z.boolean().optional(),
      serial: serialSchema.optional(),
      query: z.string().max(4000).optional(),
      /** What `package:mine` stands for: the project's package scope. */
      mine: packageScopeSchema.optional(),
      since_seq: z.number().int().min(0).optional(),
      before_seq: z.number().int().min(0).optional(),
      /** Characters of entries the answer carries at most (default and ceiling: 4 M). */
      max_chars: z
        .number()
        .int()
        .min(1000)
        .max(4 * 1024 * 1024)
        .optional(),
    }),
    response: z.object({
      entries: z.array(logEntryWireSchema),
      /** Older matches exist beyond `count` (or beyond the byte bound). */
      has_more: z.boolean(),
      /** Entries left out to keep the answer under its byte bound. */
      cut_for_size: z.number().int(),
      scanned: z.number().int(),
      count: z.number().int(),
      streams: z.array(streamInfoSchema),
      buffer_wait: bufferWaitSchema.optional(),
      /** The scan stopped at its deadline: where, and how to narrow the query. */
      stopped: z.string().optional(),
    }),
    timeoutMs: 20_000,
  }),
  /**
   * Waits for a line matching `query` logged after the request arrived (the store's newest line then
   * is the start), starting the device's stream from now when none runs. `found: false` at the
   * timeout. INVALID on a bad query, before anything starts.
   */
  'logcat.wait': defineRequest({
    actor: 'logcat',
    request: z.object({
      query: z.string().min(1).max(4000),
      /** Only this device's lines; default every streaming device, or the only online one. */
      serial: serialSchema.optional(),
      mine: packageScopeSchema.optional(),
      timeout_ms: z.number().int().min(100).max(120_000),
    }),
    response: z.object({
      found: z.boolean(),
      entry: logEntryWireSchema.nullable(),
      elapsed_ms: z.number(),
      /** The devices whose lines were watched. */
      devices: z.array(z.string()),
    }),
    timeoutMs: 185_000,
  }),
  'logcat.stats': defineRequest({
    actor: 'logcat',
    request: z.object({}),
    response: z.object({
      store: logStatsSchema,
      streams: z.array(streamInfoSchema),
      groups: z.number().int(),
      /** Streams whose socket is open, and whether the once-a-second crash timer runs (both 0/false when idle). */
      live_streams: z.number().int(),
      tick_timer: z.boolean(),
      /**
       * The store's journal on disk (what lets it outlive its worker and its process): its size, its
       * cap, and the files a replay would not read (links, FIFOs, another user's), each with why.
       */
      journal: z
        .object({
          bytes: z.number().int(),
          cap_bytes: z.number().int(),
          refused: z.array(z.string().max(2_000)).max(100),
        })
        .optional(),
    }),
    timeoutMs: 10_000,
  }),
  /** The newest crashes, newest first, with their groups (bounded in count and bytes). */
  'logcat.crashes': defineRequest({
    actor: 'logcat',
    request: z.object({
      count: z.number().int().min(1).max(200).default(20),
      package: z.string().max(255).optional(),
      serial: serialSchema.optional(),
      /** Only crashes older than this seq (a previous answer's oldest), to page back. */
      before_seq: z.number().int().min(0).optional(),
      /** Also deobfuscate the newest crash of each of the newest `max_groups` groups (retrace actor). */
      retrace: retraceAskSchema.extend({ max_groups: z.number().int().min(1).max(20) }).optional(),
    }),
    response: z.object({
      crashes: z.array(crashWireSchema),
      groups: z.array(crashGroupWireSchema),
      total: z.number().int(),
      cut_for_size: z.number().int(),
      streaming: z.array(z.string()),
      buffer_wait: bufferWaitSchema.optional(),
      /** With `retrace`: one outcome per group deobfuscated, newest group first. */
      retraced: z.array(retraceOutcomeSchema.extend({ crash_group_id: z.string().nullable() })).optional(),
    }),
    // A retrace may take the retrace actor's 60 s.
    timeoutMs: 75_000,
  }),
  /** The newest crash matching the filters, with its group; NOT_FOUND when there is none. */
  'logcat.crash_trace': defineRequest({
    actor: 'logcat',
    request: z.object({
      package: z.string().max(255).optional(),
      crash_group_id: z.string().max(64).optional(),
      /** Also deobfuscate it (retrace actor). */
      retrace: retraceAskSchema.optional(),
    }),
    response: z.object({
      crash: crashWireSchema,
      group: crashGroupWireSchema.nullable(),
      buffer_wait: bufferWaitSchema.optional(),
      /** With `retrace`: what the retrace actor made of it (never an error: the outcome says why not). */
      retrace: retraceOutcomeSchema.optional(),
    }),
    timeoutMs: 75_000,
  }),
  /** The lines around one crash the store holds (`seq` and `group_id` from its logcat.crash event). */
  'logcat.crash_context': defineRequest({
    actor: 'logcat',
    request: byDevice.extend({
      seq: z.number().int().min(1),
      group_id: z.string().max(64),
      pid: z.number().int(),
      package: z.string().max(255).nullable(),
      before: z.number().int().min(0).max(1000).default(100),
      max_lines: z.number().int().min(1).max(2000).default(400),
    }),
    response: crashContextSchema,
    timeoutMs: 10_000,
  }),
};

export const logcatEvents = {
  /** A crash, native crash or ANR was read completely from a device's log. */
  'logcat.crash': defineEvent(
    z.object({
      device: z.string().nullable(),
      package: z.string().nullable(),
      group_id: z.string(),
      kind: crashKindSchema,
      summary: z.string(),
      pid: z.number().int(),
      seq: z.number().int(),
      received_at: z.number(),
    }),
  ),
  /** A device stream changed state. */
  'logcat.state': defineEvent(
    z.object({ serial: z.string(), state: streamStateSchema, reason: z.string().nullable() }),
  ),
};
