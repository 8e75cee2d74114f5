/**
 * Agent actions for debug sessions: after a tool call that is not read-only and takes a device
 * parameter, the frontend tells the sessions actor what was done (tool, kind, success, duration,
 * device, and the agent as the actor — no other argument — and, for the UI's, its steps in Maestro's
 * terms (ui-step.ts: what export_test writes a flow from; a password's text is never in them). It is sent fire-and-forget once the call
 * has answered, so the call never waits for disk; the sessions actor's mailbox is the bounded queue,
 * and what it refuses (or what fails on the way) is counted as dropped. A hidden tool never gets
 * here, and a pinned session's refusal records nothing.
 */
import { BusError } from '../bus/errors.js';
import { MAX_STEPS_PER_ACTION } from '../bus/messages/ui.js';
import { logger } from '../util/log.js';
import type { ToolDefinition } from './define-tool.js';
import { ALL_TOOLS } from './registry.js';
import type { ToolCallRecord } from './server.js';
import { sessionOrigin, type SessionState } from './session.js';

const log = logger('agent-actions');

/** The parameters that name the device a tool acts on (the reference's spellings). */
const DEVICE_PARAMS = ['device_serial', 'deviceSerial', 'serial'] as const;

/** An agent action's kind, from the tool's annotations. */
const ACTION_KIND = {
  read: 'read',
  write: 'write',
  destructive: 'destructive',
  open_world: 'openWorld',
} as const;

/** What a frontend's recorder did so far. */
export interface AgentActionStats {
  /** Actions sent to the sessions actor. */
  sent: number;
  /** Actions that went into at least one session. */
  recorded: number;
  /** Actions the sessions actor refused (its queue was full) or that failed on the way. */
  dropped: number;
  /** Of those, refused as BUSY (the bounded queue was full). */
  dropped_busy: number;
}

/** The device parameter a tool takes, if any. */
export function deviceParamOf(tool: ToolDefinition): (typeof DEVICE_PARAMS)[number] | null {
  return DEVICE_PARAMS.find((k) => k in tool.input.shape) ?? null;
}

/** Reports agent actions of one frontend's sessions (one instance per process is enough). */
export class AgentActionRecorder {
  private readonly tools: Map<string, ToolDefinition>;
  private readonly counts: AgentActionStats = { sent: 0, recorded: 0, dropped: 0, dropped_busy: 0 };

  constructor(tools: readonly ToolDefinition[] = ALL_TOOLS) {
    this.tools = new Map(tools.map((t) => [t.name, t]));
  }

  /** Called after every tool call of `session` (from `onToolCall`); never throws, never waits. */
  record(session: SessionState, call: ToolCallRecord): void {
    // A read is an action only when it was a step of the UI (a wait, an assertion: export_test's).
    if (call.refused || (call.kind === 'read' && call.steps.length === 0)) {
      return;
    }
    const tool = this.tools.get(call.name);
    const param = tool ? deviceParamOf(tool) : null;
    if (param === null) {
      return;
    }
    const value = call.args?.[param];
    const pkg = call.args?.['package'];
    this.counts.sent++;
    session.bus
      .request('sessions.agent_action', {
        tool: call.name,
        kind: ACTION_KIND[call.kind],
        success: call.status === 'ok',
        status: call.status,
        duration_ms: Math.max(0, call.durationMs),
        serial: typeof value === 'string' ? value : null,
        package: typeof pkg === 'string' ? pkg : null,
        steps: call.steps.slice(0, MAX_STEPS_PER_ACTION),
        actor: sessionOrigin(session),
        at: new Date().toISOString(),
      })
      .then((r) => {
        if (r.sessions.length > 0) {
          this.counts.recorded++;
        }
      })
      .catch((err: unknown) => {
        this.counts.dropped++;
        const busy = err instanceof BusError && err.code === 'BUSY';
        if (busy) {
          this.counts.dropped_busy++;
        }
        // Say it once in a while, not per call: a burst that overflows would flood the log.
        if (this.counts.dropped === 1 || this.counts.dropped % 100 === 0) {
          log.warn('agent actions were dropped', { ...this.counts, error: String(err) });
        }
      });
  }

  /** The counts so far. */
  stats(): AgentActionStats {
    return { ...this.counts };
  }
}
