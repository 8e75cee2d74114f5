import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { BusError } from '../bus/errors.js';
import { logger } from '../util/log.js';
import { VERSION } from '../version.js';
import { InvalidParamsError, ToolError, annotationsFor } from './define-tool.js';
import type { ToolContext, ToolDefinition, ToolResult } from './define-tool.js';
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

/** A tool's JSON Schema for tools/list: the input form (defaults optional), without `$schema`. */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json['$schema'];
  return json;
}

/** Listings are computed once per tool: every HTTP session creates a server, and JSON Schema costs ms. */
const listingCache = new WeakMap<ToolDefinition, Tool>();

/** The tools/list entry of a tool. Inputs are closed: an argument the tool does not know is refused. */
export function toolListing(tool: ToolDefinition): Tool {
  const cached = listingCache.get(tool);
  if (cached) {
    return cached;
  }
  const listing: Tool = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: {
      ...jsonSchemaOf(tool.input, 'input'),
      additionalProperties: false,
    } as unknown as Tool['inputSchema'],
    annotations: annotationsFor(tool.kind, tool.title),
  };
  if (tool.output) {
    listing.outputSchema = jsonSchemaOf(tool.output, 'output') as Tool['outputSchema'];
  }
  listingCache.set(tool, listing);
  return listing;
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

/**
 * Creates the MCP server of one session on the SDK's low-level `Server`. We register tools/list
 * and tools/call ourselves because the error model needs bad arguments to be a JSON-RPC
 * invalid_params error, which the SDK's McpServer turns into a tool result.
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
      throw new McpError(-32002, `Resource not found: ${uri}`);
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
      throw new McpError(ErrorCode.InvalidRequest, `${resource.uri}: ${closed}`);
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

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    if (session.clientName === null) {
      // A client that pipelines its first call behind `initialized` can get here first.
      learnClient();
    }
    const name = request.params.name;
    const tool = byName.get(name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool '${name}'. Call tools/list for the tools this server has.`,
      );
    }
    if (!session.toolsets.includes(tool.toolset)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `${name} is in the "${tool.toolset}" toolset, which this droidbus MCP server does not serve (it serves ${session.toolsets.join(', ')}). Ask the user to add ${tool.toolset} to --toolsets in the droidbus registration.`,
      );
    }
    const args = request.params.arguments ?? {};
    const unknown = Object.keys(args).filter((key) => !(key in tool.input.shape));
    if (unknown.length > 0) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid arguments for ${name}: unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k.slice(0, 100)}'`).join(', ')}; it takes ${Object.keys(tool.input.shape).join(', ') || 'no arguments'}.`,
      );
    }
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid arguments for ${name}: ${z.prettifyError(parsed.error)}`,
      );
    }
    const started = performance.now();
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
    const record = (status: ToolCallRecord['status'], summary: string, refused = false): void => {
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
          args: parsed.data as Record<string, unknown>,
          refused,
        });
      } catch (err) {
        log.warn('the tool-call listener threw', { error: String(err) });
      }
    };
    const closed = tool.projectIndependent ? null : pinnedProjectClosed(session);
    if (closed) {
      record('tool_error', closed, true);
      return { content: [{ type: 'text', text: closed }], isError: true };
    }
    let result: ToolResult;
    try {
      result = await tool.handle(parsed.data, ctx);
    } catch (err) {
      if (err instanceof InvalidParamsError) {
        record('invalid_params', err.message);
        throw new McpError(ErrorCode.InvalidParams, err.message);
      }
      if (err instanceof ToolError) {
        record('tool_error', err.message);
        return {
          content: [{ type: 'text', text: err.message }],
          isError: true,
          ...(err.structured ? { structuredContent: err.structured } : {}),
        };
      }
      if (err instanceof BusError) {
        if (err.code === 'INVALID') {
          record('invalid_params', err.message);
          throw new McpError(ErrorCode.InvalidParams, err.message);
        }
        if (err.code === 'INTERNAL') {
          record('internal_error', err.message);
          throw new McpError(ErrorCode.InternalError, `droidbus internal error in ${name}: ${err.message}`);
        }
        record(err.code === 'CANCELLED' ? 'cancelled' : 'tool_error', err.message);
        return { content: [{ type: 'text', text: busErrorText(err) }], isError: true };
      }
      const message = err instanceof Error ? err.message : String(err);
      log.error(`${name} failed unexpectedly`, { error: err instanceof Error ? err.stack : message });
      record('internal_error', message);
      throw new McpError(ErrorCode.InternalError, `droidbus internal error in ${name}: ${message}`);
    }
    if (tool.output) {
      const checked = tool.output.safeParse(result.structured);
      if (!checked.success) {
        const message = `droidbus internal error in ${name}: its result does not match its output schema: ${z.prettifyError(checked.error)}`;
        record('internal_error', message);
        throw new McpError(ErrorCode.InternalError, message);
      }
    }
    record('ok', result.text);
    return {
      content: [...(result.before ?? []), { type: 'text', text: result.text }],
      ...(result.structured ? { structuredContent: result.structured } : {}),
    };
  });

  return server;
}
