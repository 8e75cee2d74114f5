import { z } from 'zod';
import { serialSchema } from '../../bus/messages/devices.js';
import { packageNameSchema } from '../../bus/messages/logcat.js';
import {
  SESSION_LIMITS,
  sessionIdSchema,
  sessionStateSchema,
  sessionsRequests,
  type SessionSummary,
} from '../../bus/messages/sessions.js';
import type { RequestOf, ResponseOf } from '../../bus/registry.js';
import { defineTool } from '../define-tool.js';
import { canonicalSerial } from './device-serial.js';

/** `2025-05-01T12:00:00.000Z` → `2025-05-01 12:00:00Z`: short enough for one line per session. */
function when(iso: string | null): string {
  return iso === null ? '?' : iso.replace('T', ' ').replace(/\.\d{3}Z$/, 'Z');
}

function deviceLabel(s: SessionSummary): string {
  const extra = s.avd_name ?? s.device_model;
  return extra ? `${s.device} (${extra})` : s.device;
}

/** One line per session, as list_debug_sessions prints it. */
export function sessionLine(s: SessionSummary): string {
  const c = s.counts;
  const span = s.closed_at !== null ? `closed ${when(s.closed_at)}` : `last event ${when(s.last_event_at)}`;
  const tags = [s.kept ? 'kept' : null, s.recorded_by === 'standalone' ? 'standalone' : null].filter(Boolean);
  return `${s.id}  ${s.state}  ${s.package} on ${deviceLabel(s)}  ${s.build_label}  apk ${s.apk_sha256.slice(0, 12)}  opened ${when(s.opened_at)}, ${span}  crashes ${c.crashes}, ANRs ${c.anrs}, exits ${c.exits}, launches ${c.launches}${tags.length ? `  [${tags.join(', ')}]` : ''}`;
}

function streamingHint(devices: string[], streaming: string[]): string[] {
  const missing = [...new Set(devices)].filter((d) => !streaming.includes(d));
  return missing.length > 0
    ? [
        `Crashes and ANRs are recorded only while droidbus streams a device's logcat: call start_logcat for ${missing.join(', ')}.`,
      ]
    : [];
}

export const listDebugSessions = defineTool({
  name: 'list_debug_sessions',
  answers: 'sessions.list',
  toolset: 'inspect',
  kind: 'read',
  title: 'List debug sessions',
  description:
    "Debug sessions, newest first: one per install of an app on a device, with what happened until the next install (launches, crashes, ANRs, exits, agents' device calls). One line each. Read one with get_debug_session; compare two with compare_debug_sessions.",
  input: z.object({
    limit: z.number().int().min(1).max(50).default(10).describe('Sessions to list (default 10, max 50)'),
    package: packageNameSchema.optional().describe('Only sessions of this package'),
    device_serial: serialSchema
      .optional()
      .describe('Only sessions on this device (a serial, or an AVD name)'),
    state: sessionStateSchema
      .optional()
      .describe('Only sessions in this state: open, closed, superseded, ended, or idle'),
    only_crashing: z.boolean().default(false).describe('Only sessions with at least one crash or ANR'),
  }),
  output: sessionsRequests['sessions.list'].response,
  projectIndependent: true,
  async handle(args, ctx) {
    const payload: RequestOf<'sessions.list'> = { limit: args.limit, only_crashing: args.only_crashing };
    if (args.package !== undefined) {
      payload.package = args.package;
    }
    if (args.device_serial !== undefined) {
      payload.device = (await canonicalSerial(ctx, args.device_serial))!;
    }
    if (args.state !== undefined) {
      payload.state = args.state;
    }
    const r = await ctx.bus.request('sessions.list', payload, { signal: ctx.signal });
    const lines =
      r.sessions.length === 0
        ? [
            r.total === 0
              ? 'No debug sessions yet: a session opens when droidbus installs an app (install_apk, run_run_configuration).'
              : `No debug session matches (${r.total} in all).`,
          ]
        : [
            `${r.sessions.length} of ${r.matched} matching debug session${r.matched === 1 ? '' : 's'} (${r.total} in all), newest first:`,
            ...r.sessions.map(sessionLine),
          ];
    const live = r.sessions.filter((s) => s.state === 'open' || s.state === 'idle').map((s) => s.device);
    return { text: [...lines, ...streamingHint(live, r.streaming)].join('\n'), structured: r };
  },
});

function buildText(r: ResponseOf<'sessions.get'>): string[] {
  const b = r.session.build;
  if (b === null) {
    return [`Build: ${r.session.build_label}.`];
  }
  const src = b.source;
  const out = [
    `Build ${b.id}: ${b.task}${b.module ? ` (${b.module}` : ''}${b.variant ? ` ${b.variant}` : ''}${b.module ? ')' : ''}, version code ${b.version_code ?? '?'}, finished ${when(b.ended_at)}${b.map_ids.length ? `, map id ${b.map_ids.join(', ')}` : ''}.`,
  ];
  if (src !== null) {
    const git =
      src.commit !== null
        ? `commit ${src.commit.slice(0, 12)}${src.branch ? ` on ${src.branch}` : ''}${src.uncommitted_changes ? ` with ${src.changed_files.length}${src.changed_files_truncated ? '+' : ''} uncommitted changed files` : ''}`
        : `no commit (${src.no_commit_because ?? 'not recorded'})`;
    const tools = [
      src.gradle_version ? `Gradle ${src.gradle_version}` : null,
      src.agp_version ? `AGP ${src.agp_version}` : null,
      src.jdk_version ? `JDK ${src.jdk_version}` : null,
      src.dependencies ? `${src.dependencies.count} resolved dependencies` : null,
    ].filter(Boolean);
    out.push(`Source: ${git}${tools.length ? `; ${tools.join(', ')}` : ''}.`);
  }
  return out;
}

export const getDebugSession = defineTool({
  name: 'get_debug_session',
  answers: 'sessions.get',
  toolset: 'inspect',
  kind: 'read',
  title: 'Read a debug session',
  description:
    'One debug session: state, build (task, variant, version code, APK hash, map ids, commit, tool versions), install, counts, its newest 20 crashes and ANRs, and its timeline: the newest max_events before before_seq, oldest first (page back with next_before_seq). capture_seq returns the log lines kept around that crash.',
  input: z.object({
    session_id: sessionIdSchema,
    max_events: z
      .number()
      .int()
      .min(0)
      .max(SESSION_LIMITS.maxEventsReturned)
      .default(100)
      .describe('Timeline events, the newest before before_seq (0 for none)'),
    before_seq: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("Events older than this seq (the last page's next_before_seq)"),
    capture_seq: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("The seq of a crash or ANR: also return the log lines kept with it ('capture')"),
    log_lines: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(100)
      .describe('With capture_seq: the last lines of the capture to return (default 100, max 1,000)'),
  }),
  output: sessionsRequests['sessions.get'].response,
  projectIndependent: true,
  async handle(args, ctx) {
    const payload: RequestOf<'sessions.get'> = {
      session_id: args.session_id,
      max_events: args.max_events,
      log_lines: args.log_lines,
    };
    if (args.before_seq !== undefined) {
      payload.before_seq = args.before_seq;
    }
    if (args.capture_seq !== undefined) {
      payload.capture_seq = args.capture_seq;
    }
    const r = await ctx.bus.request('sessions.get', payload, { signal: ctx.signal });
    const s = r.session;
    const c = s.counts;
    const lines = [
      sessionLine(s),
      s.state_reason
        ? `State: ${s.state} — ${s.state_reason}${s.superseded_by ? ` (${s.superseded_by})` : ''}.`
        : `State: ${s.state}.`,
      ...buildText(r),
      `Installed ${when(s.install.at)} by ${s.install.by}: ${s.install.apk_path} (${s.install.apk_size} bytes), recorded by a ${s.install.recorded_by === 'host' ? 'droidbus host' : 'standalone droidbus'}.`,
      `Counts: ${c.launches} launches, ${c.crashes} crashes, ${c.anrs} ANRs, ${c.exits} exits, ${c.stops} stops, ${c.agent_actions} agent actions${s.dropped_events > 0 ? `; ${s.dropped_events} older events dropped` : ''}.`,
    ];
    if (r.timeline.length > 0) {
      lines.push(
        `Timeline (${r.timeline.length} events${r.next_before_seq !== null ? `; older ones with before_seq ${r.next_before_seq}` : ''}):`,
        ...r.timeline.map((e) => `  #${e.seq} ${when(e.at)} ${e.kind} — ${e.by}: ${e.summary}`),
      );
    }
    if (r.crashes.length > 0) {
      lines.push(
        `Crashes and ANRs (newest first${r.crashes_truncated ? `, the newest ${r.crashes.length}` : ''}):`,
        ...r.crashes.map(
          (x) =>
            `  #${x.seq} ${x.time || when(x.at)} ${x.kind} pid ${x.pid}: ${x.summary} — ${x.attribution.verified ? 'verified' : x.attribution.method === 'unattributed' ? 'unattributed' : 'not verified'}: ${x.attribution.reason}${x.kept_lines > 0 ? ` (${x.kept_lines} log lines kept: capture_seq ${x.seq})` : ''}`,
        ),
      );
    }
    if (r.capture !== null) {
      lines.push(
        `Log lines kept with #${r.capture.seq} (${r.capture.lines.length} of ${r.capture.kept}${r.capture.cut ? '; raise log_lines for more' : ''}):`,
        ...r.capture.lines,
      );
    }
    if ((s.state === 'open' || s.state === 'idle') && !r.logcat_streaming) {
      lines.push(...streamingHint([s.device], []));
    }
    return { text: lines.join('\n'), structured: r };
  },
});

function launchText(r: ResponseOf<'sessions.compare'>): string {
  const l = r.launch;
  const side = (x: typeof l.from): string =>
    x === null
      ? 'none'
      : `${x.total_ms !== null ? `${x.total_ms} ms` : `Displayed ${x.displayed_ms} ms`}${x.launch_state ? ` ${x.launch_state}` : ''}`;
  const delta =
    l.delta_ms !== null
      ? ` — ${l.delta_ms >= 0 ? '+' : ''}${l.delta_ms} ms`
      : l.note !== null
        ? ` (${l.note})`
        : '';
  return `Launch: ${side(l.from)} → ${side(l.to)}${delta}.`;
}

export const compareDebugSessions = defineTool({
  name: 'compare_debug_sessions',
  answers: 'sessions.compare',
  toolset: 'inspect',
  kind: 'read',
  title: 'Compare debug sessions',
  description:
    'Compares two debug sessions: builds, installs, devices, launch times, crash signatures new or gone in `to`, exits by reason, and provenance (commit, uncommitted changes, build files, tool and dependency versions) where recorded. Without from and to: the newest clean launch against the first later crashing session of the same app.',
  input: z.object({
    from: sessionIdSchema.optional().describe('The earlier (working) session; give to as well'),
    to: sessionIdSchema.optional().describe('The later (failing) session; give from as well'),
  }),
  output: sessionsRequests['sessions.compare'].response,
  projectIndependent: true,
  async handle(args, ctx) {
    const payload: RequestOf<'sessions.compare'> = {};
    if (args.from !== undefined) {
      payload.from = args.from;
    }
    if (args.to !== undefined) {
      payload.to = args.to;
    }
    const r = await ctx.bus.request('sessions.compare', payload, { signal: ctx.signal });
    const lines = [
      `From: ${sessionLine(r.from)}`,
      `To:   ${sessionLine(r.to)}`,
      ...(r.chosen_by !== null ? [`Chosen: ${r.chosen_by}.`] : []),
      r.differences.length > 0
        ? `Differences: ${r.differences.map((d) => `${d.field} ${JSON.stringify(d.from)} → ${JSON.stringify(d.to)}`).join('; ')}.`
        : 'No difference in build, install or device.',
      launchText(r),
      `Crashes: ${r.crashes.new_in_to.length} signature(s) new in to${r.crashes.new_in_to.length ? ` (${r.crashes.new_in_to.slice(0, 5).join(' | ')})` : ''}, ${r.crashes.gone_in_to.length} gone.`,
      `Exits: ${JSON.stringify(r.exits.from)} → ${JSON.stringify(r.exits.to)}.`,
    ];
    const p = r.provenance;
    if (p !== null) {
      lines.push(
        `Provenance: ${p.same_commit === null ? 'commits not comparable' : p.same_commit ? 'same commit' : 'different commits'}${p.differences.length ? `; ${p.differences.map((d) => `${d.field} ${JSON.stringify(d.from)} → ${JSON.stringify(d.to)}`).join('; ')}` : ''}${p.changed_build_files.length ? `; build files ${p.changed_build_files.map((f) => `${f.path} ${f.change}`).join(', ')}` : ''}${p.dependency_changes.length ? `; ${p.dependency_changes.length} dependency versions changed` : ''}.`,
        ...p.notes.map((n) => `Note: ${n}.`),
      );
    }
    if (r.not_recorded.length > 0) {
      lines.push(`Not recorded: ${r.not_recorded.join('; ')}.`);
    }
    return { text: lines.join('\n'), structured: r };
  },
});

export const sessionTools = [listDebugSessions, getDebugSession, compareDebugSessions];
