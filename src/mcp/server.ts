import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { BusError } from '../bus/errors.js';
import { logger } from '../util/log.js';
import { VERSION } from '../version.js';
import { ArgumentError, TOOL_ERROR_CODES, ToolError } from './define-tool.js';
import { toolListing } from './tool-listing.js';
import type { ToolContext, ToolDefinition, ToolErrorCode, ToolResult } from './define-tool.js';
import { capText, ERROR_CUT_HINT, ERROR_TEXT_BUDGET, TEXT_BUDGET, TEXT_CUT_HINT } from './budgets.js';
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  ProtocolError,
  RESOURCE_NOT_FOUND,
} from './protocol-error.js';
import { buildInstructions } from './instructions.js';
import { ALL_PROMPTS, registerPrompts } from './prompts.js';
import type { PromptDefinition } from './prompts.js';
import { ALL_TOOLS } from './registry.js';
import type { ResourceDefinition } from './resources.js';
import { describeMode, pinnedProjectClosed, sessionOrigin } from './session.js';
import type { SessionState } from './session.js';

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
}

/** What happened in one prompt get or resource read, for the activity log. */
export interface RequestRecord {
  kind: 'prompt' | 'resource';
  /** The prompt's name or the resource's URI. */
  name: string;
  durationMs: number;
  status: 'ok' | 'invalid_params' | 'invalid_request' | 'not_found' | 'internal_error';
  summary: string;
}

export interface McpServerOptions {
  session: SessionState;
  tools?: readonly ToolDefinition[];
  /** The resources this session serves. */
  resources?: readonly ResourceDefinition[];
  /** The prompts this session serves (default: every prompt of the registry). */
  prompts?: readonly PromptDefinition[];
  /** Called after every tool call (never awaited: a slow listener must not slow the call). */
  onToolCall?: (record: ToolCallRecord) => void;
  /** Called after every prompt get and resource read (never awaited). */
  onRequest?: (record: RequestRecord) => void;
}

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

/**
 * Creates the MCP server of one session on the SDK's low-level `Server`. We register tools/list
 * and tools/call ourselves: listings are computed once per tool, a malformed tools/call is answered
 * in words, and every error follows one map (bad arguments and refusals → coded `isError` results).
 */
export function createMcpServer(options: McpServerOptions): Server {
  const { session } = options;
  const tools = options.tools ?? ALL_TOOLS;
  const enabled = tools.filter((t) => session.toolsets.includes(t.toolset));
  const listings = enabled.map(toolListing);
  const byName = new Map(tools.map((t) => [t.name, t]));

  const server = new Server(
    { name: 'droidbus', version: VERSION, title: `droidbus (${describeMode(session.mode)})` },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: buildInstructions(session.mode, session.toolsets, tools),
    },
  );
  const learnClient = (): void => {
    const client = server.getClientVersion();
    session.clientName = client?.name ?? null;
    session.clientVersion = client?.version ?? null;
  };
  server.oninitialized = learnClient;

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listings }));

  const resources = options.resources ?? [];
  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
    const shown = await Promise.all(
      resources.map(async (r) => {
        try {
          if (r.projectFile && pinnedProjectClosed(session) !== null) {
            return false;
          }
          return (await r.listed?.(session, extra.signal)) ?? true;
        } catch (err) {
          log.warn(`could not tell whether ${r.uri} is available`, { error: String(err) });
          return false;
        }
      }),
    );
    return {
      resources: resources
        .filter((_r, i) => shown[i])
        .map((r) => ({
          uri: r.uri,
          name: r.name,
          title: r.title,
          description: r.description,
          mimeType: r.mimeType,
        })),
    };
  });
  const recordRequest = (record: RequestRecord): void => {
    try {
      options.onRequest?.(record);
    } catch (err) {
      log.warn('the request listener threw', { error: String(err) });
    }
  };
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const started = performance.now();
    const resource = resources.find((r) => r.uri === request.params.uri);
    const uri = request.params.uri.slice(0, 200);
    if (!resource) {
      recordRequest({
        kind: 'resource',
        name: uri,
        durationMs: 0,
        status: 'not_found',
        summary: 'not found',
      });
      // The spec's resource-not-found code.
      throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`);
    }
    const closed = resource.projectFile ? pinnedProjectClosed(session) : null;
    if (closed !== null) {
      recordRequest({
        kind: 'resource',
        name: resource.uri,
        durationMs: 0,
        status: 'invalid_request',
        summary: closed,
      });
      throw new ProtocolError(INVALID_REQUEST, `${resource.uri}: ${closed}`);
    }
    try {
      const text = await resource.read(session, extra.signal);
      recordRequest({
        kind: 'resource',
        name: resource.uri,
        durationMs: performance.now() - started,
        status: 'ok',
        summary: `${Buffer.byteLength(text, 'utf8')} bytes of ${resource.mimeType}`,
      });
      return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text }] };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      recordRequest({
        kind: 'resource',
        name: resource.uri,
        durationMs: performance.now() - started,
        status: 'internal_error',
        summary: message,
      });
      throw err;
    }
  });

  registerPrompts(server, options.prompts ?? ALL_PROMPTS, recordRequest);

  // Server.setRequestHandler checks a tools/call against the SDK's schema before the handler and
  // answers a raw zod dump (or -32603 when the protocol layer's parse fails first); droidbus checks
  // the request itself (callParams) and answers in words.
  Protocol.prototype.setRequestHandler.call(
    server,
    LOOSE_CALL_TOOL_REQUEST,
    async (request: { params?: unknown }, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => {
      if (session.clientName === null) {
        // A client that pipelines its first call behind `initialized` can get here first.
        learnClient();
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
      return callTool(tool, args, extra);
    },
  );

  async function callTool(
    tool: ToolDefinition,
    args: Record<string, unknown>,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  ): Promise<CallToolResult> {
    const name = tool.name;
    const started = performance.now();
    const record = (
      status: ToolCallRecord['status'],
      summary: string,
      recordedArgs: Record<string, unknown> | undefined,
      refused = false,
    ): void => {
      if (!options.onToolCall) {
        return;
      }
      try {
        options.onToolCall({
          name,
          kind: tool.kind,
          durationMs: performance.now() - started,
          status,
          summary,
          args: recordedArgs,
          refused,
        });
      } catch (err) {
        log.warn('the tool-call listener threw', { error: String(err) });
      }
    };
    // Bad arguments are tool execution errors (MCP 2025-11-25, SEP-1303): the model reads them.
    const unknown = Object.keys(args).filter((key) => !(key in tool.input.shape));
    if (unknown.length > 0) {
      const text = `Invalid arguments for ${name}: unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k.slice(0, 100)}'`).join(', ')}; it takes ${Object.keys(tool.input.shape).join(', ') || 'no arguments'}.`;
      record('invalid_params', text, undefined);
      return toolFailure('invalid_argument', text);
    }
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) {
      const text = `Invalid arguments for ${name}: ${z.prettifyError(parsed.error)}`;
      record('invalid_params', text, undefined);
      return toolFailure('invalid_argument', text);
    }
    const data = parsed.data as Record<string, unknown>;
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
    const ctx: ToolContext = {
      bus: session.bus,
      session,
      origin: sessionOrigin(session),
      signal: extra.signal,
      cancelSignal: cancelled.signal,
      wantsProgress: progressToken !== undefined,
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
    const closed = tool.projectIndependent ? null : pinnedProjectClosed(session);
    if (closed) {
      record('tool_error', closed, data, true);
      return toolFailure('project_closed', closed);
    }
    let result: ToolResult;
    try {
      result = await tool.handle(data, ctx);
    } catch (err) {
      if (err instanceof ToolError) {
        record(err instanceof ArgumentError ? 'invalid_params' : 'tool_error', err.message, data);
        return toolFailure(err.code, err.message, err.structured);
      }
      if (err instanceof BusError) {
        if (err.code === 'INTERNAL') {
          record('internal_error', err.message, data);
          throw new ProtocolError(INTERNAL_ERROR, `droidbus internal error in ${name}: ${err.message}`);
        }
        const code = toolErrorCodeOf(err);
        record(
          err.code === 'INVALID' ? 'invalid_params' : err.code === 'CANCELLED' ? 'cancelled' : 'tool_error',
          err.message,
          data,
        );
        return toolFailure(code, busErrorText(err), undefined, detailsOf(err));
      }
      const message = err instanceof Error ? err.message : String(err);
      log.error(`${name} failed unexpectedly`, { error: err instanceof Error ? err.stack : message });
      record('internal_error', message, data);
      throw new ProtocolError(INTERNAL_ERROR, `droidbus internal error in ${name}: ${message}`);
    }
    if (tool.output) {
      const checked = tool.output.safeParse(result.structured);
      if (!checked.success) {
        const message = `droidbus internal error in ${name}: its result does not match its output schema: ${z.prettifyError(checked.error)}`;
        record('internal_error', message, data);
        throw new ProtocolError(INTERNAL_ERROR, message);
      }
    }
    record('ok', result.text, data);
    const limit = Math.min(result.answerChars ?? TEXT_BUDGET, tool.maxAnswerChars ?? TEXT_BUDGET);
    const text = capText(result.text, Math.max(TEXT_BUDGET, limit), TEXT_CUT_HINT);
    return {
      content: [...(result.before ?? []), { type: 'text', text }],
      ...(result.structured ? { structuredContent: result.structured } : {}),
    };
  }

  return server;
}
