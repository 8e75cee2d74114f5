import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { z } from 'zod';
import { BusError } from '../bus/errors.js';
import type { UiStep } from '../bus/messages/ui.js';
import { logger } from '../util/log.js';
import { settledWithin } from '../util/sleep.js';
import { ArgumentError, TOOL_ERROR_CODES, ToolError } from './define-tool.js';
import type { ToolContext, ToolDefinition, ToolErrorCode, ToolResult } from './define-tool.js';
import { capText, ERROR_CUT_HINT, ERROR_TEXT_BUDGET, TEXT_BUDGET, TEXT_CUT_HINT } from './budgets.js';
import { INTERNAL_ERROR, INVALID_PARAMS, ProtocolError } from './protocol-error.js';
import { leaveOutRefusedItems } from './output-repair.js';
import { pinnedProjectClosed, sessionOrigin } from './session.js';
import type { SessionState } from './session.js';

/**
 * One tools/call, from its raw params to its result: the params checked in words, the arguments
 * against the tool's schema (bad ones are tool execution errors the model reads), the tool's
 * context (bus, origin, cancellation, progress), and every failure through one map — refusals and
 * bus errors become coded `isError` results, droidbus's own bugs -32603.
 */

const log = logger('mcp');

/** What happened in one tool call, for the activity log and agent actions. */
export interface ToolCallRecord {
  name: string;
  kind: ToolDefinition['kind'];
  durationMs: number;
  status: 'ok' | 'tool_error' | 'invalid_params' | 'internal_error' | 'cancelled';
  summary: string;
  args: Record<string, unknown> | undefined;
  /** True when droidbus refused the call before the tool ran (a pinned session's closed project). */
  refused: boolean;
  /** What a successful call did to the UI, for the debug sessions (ToolResult.steps). */
  steps: UiStep[];
}

export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a bus error means for the model: the message plus what to try next. */
function busErrorText(err: BusError): string {
  switch (err.code) {
    case 'BUSY':
      return `${err.message}. Try again in a moment.`;
    case 'TIMEOUT':
      return `${err.message}. The device or process may be stuck; check it with list_devices and try again.`;
    case 'CANCELLED':
      return `Cancelled: ${err.message}`;
    case 'DEVICE_OFFLINE':
      return `${err.message}. Call list_devices to see which devices are online.`;
    case 'CRASHED':
      return err.message;
    case 'UNAVAILABLE':
      return `${err.message}. Try again; if it persists run run_health_check.`;
    default:
      return err.message;
  }
}

/** tools/call as the protocol layer sees it: droidbus checks the params itself (callParams). */
const LOOSE_CALL_TOOL_REQUEST = z.object({ method: z.literal('tools/call'), params: z.unknown() });

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The tool and arguments of a tools/call, or -32602 saying what is malformed. */
function callParams(params: unknown): { name: string; args: Record<string, unknown> } {
  if (!isPlainObject(params)) {
    throw new ProtocolError(
      INVALID_PARAMS,
      'tools/call needs params: an object with name (the tool to call) and arguments (an object of its named arguments).',
    );
  }
  const name = params['name'];
  if (typeof name !== 'string' || name === '') {
    throw new ProtocolError(
      INVALID_PARAMS,
      `tools/call needs params.name, the name of a tool (a string; got ${name === undefined ? 'none' : Array.isArray(name) ? 'an array' : typeof name}). Call tools/list for the tools this server has.`,
    );
  }
  const args = params['arguments'];
  if (args !== undefined && args !== null && !isPlainObject(args)) {
    throw new ProtocolError(
      INVALID_PARAMS,
      `tools/call params.arguments must be an object of named arguments (got ${Array.isArray(args) ? 'an array' : typeof args}), e.g. {"device_serial": "emulator-5554"}.`,
    );
  }
  return { name, args: isPlainObject(args) ? args : {} };
}

/** The stable code of a bus error: a reason its sender named, else one per bus code. */
function toolErrorCodeOf(err: BusError): ToolErrorCode {
  const reason = err.details?.['reason'];
  if (typeof reason === 'string' && (TOOL_ERROR_CODES as readonly string[]).includes(reason)) {
    return reason as ToolErrorCode;
  }
  return BUS_ERROR_CODES[err.code];
}

const BUS_ERROR_CODES: Record<BusError['code'], ToolErrorCode> = {
  INVALID: 'invalid_argument',
  NOT_FOUND: 'not_found',
  BUSY: 'busy',
  TIMEOUT: 'timeout',
  CANCELLED: 'cancelled',
  DEVICE_OFFLINE: 'device_offline',
  UNAVAILABLE: 'unavailable',
  FAILED: 'failed',
  CRASHED: 'crashed',
  // Never a tool result (a protocol error), listed for the record's type only.
  INTERNAL: 'failed',
};

/** A bus error's machine-readable facts for clients (its reason is the code already). */
function detailsOf(err: BusError): Record<string, unknown> | undefined {
  if (err.details === undefined) {
    return undefined;
  }
  const { reason: _reason, ...rest } = err.details;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/**
 * A tool execution error: `isError`, the text (at most ERROR_TEXT_BUDGET characters, the cut
 * said), and `structuredContent` with `error.code` — beside the tool's own result shape when the
 * failed work has one (a failed build's diagnostics).
 */
export function toolFailure(
  code: ToolErrorCode,
  text: string,
  structured?: Record<string, unknown>,
  details?: Record<string, unknown>,
): CallToolResult {
  return {
    content: [{ type: 'text', text: capText(text, ERROR_TEXT_BUDGET, ERROR_CUT_HINT) }],
    isError: true,
    structuredContent: { ...structured, error: { code, ...(details ? { details } : {}) } },
  };
}

/** Who hears about a finished call, and the session and server it ran in. */
export interface CallDeps {
  session: SessionState;
  server: Server;
  /** Called after every tool call (never awaited: a slow listener must not slow the call). */
  onToolCall: ((record: ToolCallRecord) => void) | undefined;
  /** The tools this server has, by name: what a tool's ctx.callTool reaches. */
  tools?: ReadonlyMap<string, ToolDefinition>;
}

type Recorder = (
  status: ToolCallRecord['status'],
  summary: string,
  recordedArgs: Record<string, unknown> | undefined,
  refused?: boolean,
  steps?: UiStep[],
) => void;

function recorder(tool: ToolDefinition, deps: CallDeps): Recorder {
  const started = performance.now();
  return (status, summary, recordedArgs, refused = false, steps = []) => {
    if (!deps.onToolCall) {
      return;
    }
    try {
      deps.onToolCall({
        name: tool.name,
        kind: tool.kind,
        durationMs: performance.now() - started,
        status,
        summary,
        args: recordedArgs,
        refused,
        steps,
      });
    } catch (err) {
      log.warn('the tool-call listener threw', { error: String(err) });
    }
  };
}

/** The arguments as the tool's schema makes them, or the words saying what is wrong with them. */
function checkArguments(
  tool: ToolDefinition,
  args: Record<string, unknown>,
): { data: Record<string, unknown> } | { text: string } {
  // Bad arguments are tool execution errors (MCP 2025-11-25, SEP-1303): the model reads them.
  const unknown = Object.keys(args).filter((key) => !(key in tool.input.shape));
  if (unknown.length > 0) {
    return {
      text: `Invalid arguments for ${tool.name}: unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k.slice(0, 100)}'`).join(', ')}; it takes ${Object.keys(tool.input.shape).join(', ') || 'no arguments'}.`,
    };
  }
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) {
    return { text: `Invalid arguments for ${tool.name}: ${z.prettifyError(parsed.error)}` };
  }
  return { data: parsed.data as Record<string, unknown> };
}

/** The context one call's handler gets: the bus, who asks, its signals and progress. */
function toolContext(deps: CallDeps, extra: CallExtra): ToolContext {
  const { session, server } = deps;
  const progressToken = extra._meta?.progressToken;
  // The SDK aborts a handler's signal both for notifications/cancelled and when the connection
  // closes (after which it has no transport). Only the first is the client cancelling this call.
  const cancelled = new AbortController();
  extra.signal.addEventListener(
    'abort',
    () =>
      setImmediate(() => {
        if (server.transport !== undefined) {
          cancelled.abort(extra.signal.reason);
        }
      }),
    { once: true },
  );
  return {
    bus: session.bus,
    session,
    origin: sessionOrigin(session),
    signal: extra.signal,
    cancelSignal: cancelled.signal,
    wantsProgress: progressToken !== undefined,
    callTool: (name, args, defaults) => nestedCall(name, args, defaults ?? {}, extra, deps),
    progress: (p) => {
      if (progressToken === undefined || extra.signal.aborted) {
        return;
      }
      extra
        .sendNotification({
          method: 'notifications/progress',
          params: {
            progressToken,
            progress: p.progress,
            ...(p.total !== undefined ? { total: p.total } : {}),
            ...(p.message !== undefined ? { message: p.message } : {}),
          },
        })
        .catch((err: unknown) => log.debug('progress notification failed', { error: String(err) }));
    },
  };
}

/** A handler's throw as the client gets it: a coded tool error, or -32603 for droidbus's own bug. */
function failedCall(
  tool: ToolDefinition,
  err: unknown,
  data: Record<string, unknown>,
  record: Recorder,
): CallToolResult {
  const name = tool.name;
  if (err instanceof ToolError) {
    record(err instanceof ArgumentError ? 'invalid_params' : 'tool_error', err.message, data);
    return toolFailure(err.code, err.message, err.structured);
  }
  if (err instanceof BusError && err.code !== 'INTERNAL') {
    record(
      err.code === 'INVALID' ? 'invalid_params' : err.code === 'CANCELLED' ? 'cancelled' : 'tool_error',
      err.message,
      data,
    );
    return toolFailure(toolErrorCodeOf(err), busErrorText(err), undefined, detailsOf(err));
  }
  const message = err instanceof Error ? err.message : String(err);
  if (!(err instanceof BusError)) {
    log.error(`${name} failed unexpectedly`, { error: err instanceof Error ? err.stack : message });
  }
  record('internal_error', message, data);
  throw new ProtocolError(INTERNAL_ERROR, `droidbus internal error in ${name}: ${message}`);
}

/** A result as the client gets it: checked against the output schema, its text within budget. */
function answer(
  tool: ToolDefinition,
  result: ToolResult,
  data: Record<string, unknown>,
  record: Recorder,
): CallToolResult {
  if (tool.output) {
    const checked = tool.output.safeParse(result.structured);
    if (!checked.success) {
      // Device data is input, not a contract: what fits is answered and what does not is named.
      const fault = z.prettifyError(checked.error);
      const repaired =
        result.structured === undefined ? null : leaveOutRefusedItems(tool.output, result.structured);
      log.error(`${tool.name}: its result does not fit its output schema`, {
        fault,
        repaired: repaired !== null,
      });
      if (repaired === null) {
        const message = `${result.text}\n\n[droidbus could not give this answer its structured form (${fault.replace(/\s+/g, ' ').slice(0, 400)}); the text above is what it read. Please report this.]`;
        record('internal_error', message, data);
        return toolFailure('failed', message);
      }
      result = {
        ...result,
        structured: repaired.value,
        text: `${result.text}\n[${repaired.dropped.length} item${repaired.dropped.length === 1 ? '' : 's'} left out of the structured answer, not fitting its schema: ${repaired.dropped.slice(0, 5).join('; ')}${repaired.dropped.length > 5 ? '; …' : ''}]`,
      };
    }
  }
  record('ok', result.text, data, false, result.steps);
  const limit = Math.min(result.answerChars ?? TEXT_BUDGET, tool.maxAnswerChars ?? TEXT_BUDGET);
  const text = capText(result.text, Math.max(TEXT_BUDGET, limit), TEXT_CUT_HINT);
  return {
    content: [...(result.before ?? []), { type: 'text', text }],
    ...(result.structured ? { structuredContent: result.structured } : {}),
  };
}

/** Runs one call of `tool` with its raw arguments. */
export async function callTool(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  extra: CallExtra,
  deps: CallDeps,
): Promise<CallToolResult> {
  const record = recorder(tool, deps);
  const checked = checkArguments(tool, args);
  if ('text' in checked) {
    record('invalid_params', checked.text, undefined);
    return toolFailure('invalid_argument', checked.text);
  }
  const { data } = checked;
  const ctx = toolContext(deps, extra);
  const closed = tool.projectIndependent ? null : pinnedProjectClosed(deps.session);
  if (closed) {
    record('tool_error', closed, data, true);
    return toolFailure('project_closed', closed);
  }
  // Registered before the first await: a call that arrives after this one and waits for it
  // (`after`) sees it, however the two interleave from here on.
  const handled = afterInflight(deps.session, tool).then(() => tool.handle(data, ctx));
  const running = trackInflight(deps.session, tool.name, handled);
  let result: ToolResult;
  try {
    result = await running;
  } catch (err) {
    return failedCall(tool, err, data, record);
  }
  return answer(tool, result, data, record);
}

/** The tool a batch step names may run when this session serves it; never a batch inside a batch. */
async function nestedCall(
  name: string,
  args: Record<string, unknown>,
  defaults: Record<string, unknown>,
  extra: CallExtra,
  deps: CallDeps,
): Promise<{ result: CallToolResult; kind: ToolDefinition['kind'] | null }> {
  const tool = deps.tools?.get(name);
  if (tool === undefined || tool.nests === false || !deps.session.toolsets.includes(tool.toolset)) {
    const result = toolFailure(
      'invalid_argument',
      tool === undefined
        ? `Unknown tool '${name.slice(0, 100)}': a step names a tool of tools/list.`
        : tool.nests === false
          ? `${name} cannot run as a step.`
          : `${name} is in the "${tool.toolset}" toolset, which this server does not serve.`,
    );
    return { result, kind: null };
  }
  const filled = Object.fromEntries(
    Object.entries(defaults).filter(([key, value]) => value !== undefined && key in tool.input.shape),
  );
  try {
    return { result: await callTool(tool, { ...filled, ...args }, extra, deps), kind: tool.kind };
  } catch (err) {
    // droidbus's own failure in a step (-32603 on its own) ends the batch with its words.
    return {
      result: toolFailure('failed', err instanceof Error ? err.message : String(err)),
      kind: tool.kind,
    };
  }
}

/** How long a call waits for the session's calls it comes `after`. */
export const IN_FLIGHT_WAIT_MS = 10_000;

/** Resolves once the session's running calls of the tools `tool` comes after have ended (bounded). */
async function afterInflight(session: SessionState, tool: ToolDefinition): Promise<void> {
  const pending = (tool.after ?? []).flatMap((name) => [...(session.inflight.get(name) ?? [])]);
  if (pending.length === 0) {
    return;
  }
  await settledWithin(pending, IN_FLIGHT_WAIT_MS);
}

function trackInflight<T>(session: SessionState, name: string, call: Promise<T>): Promise<T> {
  let calls = session.inflight.get(name);
  if (calls === undefined) {
    calls = new Set();
    session.inflight.set(name, calls);
  }
  const tracked = call.finally(() => {
    calls.delete(tracked);
    if (calls.size === 0 && session.inflight.get(name) === calls) {
      session.inflight.delete(name);
    }
  });
  calls.add(tracked);
  return tracked;
}

/**
 * Answers tools/call on `server`. Server.setRequestHandler checks a tools/call against the SDK's
 * schema before the handler and answers a raw zod dump (or -32603 when the protocol layer's parse
 * fails first); droidbus checks the request itself (callParams) and answers in words.
 */
export function serveToolCalls(
  server: Server,
  tools: readonly ToolDefinition[],
  deps: CallDeps & { learnClient: () => void },
): void {
  const { session } = deps;
  const byName = new Map(tools.map((t) => [t.name, t]));
  Protocol.prototype.setRequestHandler.call(
    server,
    LOOSE_CALL_TOOL_REQUEST,
    async (request: { params?: unknown }, extra: CallExtra) => {
      if (session.clientName === null) {
        // A client that pipelines its first call behind `initialized` can get here first.
        deps.learnClient();
      }
      const { name, args } = callParams(request.params);
      const tool = byName.get(name);
      if (!tool) {
        throw new ProtocolError(
          INVALID_PARAMS,
          `Unknown tool '${name.slice(0, 100)}'. Call tools/list for the tools this server has.`,
        );
      }
      if (!session.toolsets.includes(tool.toolset)) {
        throw new ProtocolError(
          INVALID_PARAMS,
          `${name} is in the "${tool.toolset}" toolset, which this droidbus MCP server does not serve (it serves ${session.toolsets.join(', ')}). Ask the user to add ${tool.toolset} to --toolsets in the droidbus registration.`,
        );
      }
      return callTool(tool, args, extra, { ...deps, tools: byName });
    },
  );
}
