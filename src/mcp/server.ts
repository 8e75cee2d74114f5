import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { logger } from '../util/log.js';
import { VERSION } from '../version.js';
import { toolListing } from './tool-listing.js';
import type { ToolDefinition } from './define-tool.js';
import { buildInstructions } from './instructions.js';
import { ALL_PROMPTS, registerPrompts } from './prompts.js';
import type { PromptDefinition } from './prompts.js';
import { ALL_TOOLS } from './registry.js';
import type { ResourceDefinition } from './resources.js';
import { serveResources } from './server-resources.js';
import { describeMode } from './session.js';
import type { SessionState } from './session.js';
import { serveToolCalls, type ToolCallRecord } from './tool-call.js';
import type { RequestRecord } from './request-record.js';

const log = logger('mcp');

export type { ToolCallRecord } from './tool-call.js';
export { toolFailure } from './tool-call.js';

export type { RequestRecord } from './request-record.js';

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

/**
 * Creates the MCP server of one session on the SDK's low-level `Server`. We register tools/list
 * and tools/call ourselves: listings are computed once per tool, a malformed tools/call is answered
 * in words, and every error follows one map (bad arguments and refusals → coded `isError` results;
 * `tool-call.ts`). Resources are `server-resources.ts`'s, prompts `prompts.ts`'s.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const { session } = options;
  const tools = options.tools ?? ALL_TOOLS;
  const listings = tools.filter((t) => session.toolsets.includes(t.toolset)).map(toolListing);

  const server = new Server(
    { name: 'droidbus', version: VERSION, title: `droidbus (${describeMode(session.mode)})` },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: buildInstructions(session.mode, session.toolsets),
    },
  );
  const learnClient = (): void => {
    const client = server.getClientVersion();
    session.clientName = client?.name ?? null;
    session.clientVersion = client?.version ?? null;
  };
  server.oninitialized = learnClient;
  const recordRequest = (record: RequestRecord): void => {
    try {
      options.onRequest?.(record);
    } catch (err) {
      log.warn('the request listener threw', { error: String(err) });
    }
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listings }));
  serveToolCalls(server, tools, { session, server, onToolCall: options.onToolCall, learnClient });
  serveResources(server, session, options.resources ?? [], recordRequest);
  registerPrompts(server, options.prompts ?? ALL_PROMPTS, recordRequest);
  return server;
}
