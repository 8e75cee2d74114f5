import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../version.js';
import { codeOfThrown, codeOfToolText } from './error-code.js';
import type { CallRecorder } from './recorder.js';
import { answerText } from '../mcp/call-result.js';

/** A tool call's outcome as the agent loop sees it. */
export interface CallOutcome {
  ok: boolean;
  /** The error code when it failed (see error-code.ts). */
  code: string | null;
  text: string;
  structured: Record<string, unknown>;
}

/** What `droidbus://runtime` reports (src/mcp/runtime-stats.ts). */
export interface FrontendRuntime {
  pid: number;
  rss_mb: number;
  heap_used_mb: number;
  event_loop: { p50_ms: number; p99_ms: number; max_ms: number; mean_ms: number };
}

/** One `droidbus mcp` process driven by the MCP SDK client, as an agent's client would. */
export interface LoadSession {
  readonly index: number;
  readonly pid: number;
  /** Calls a tool and counts it in `recorder` (when given). Never throws: failures come back as outcomes. */
  call(
    name: string,
    args: Record<string, unknown>,
    options?: { recorder?: CallRecorder | null; timeoutMs?: number },
  ): Promise<CallOutcome>;
  /** Reads `droidbus://runtime`. */
  runtime(): Promise<FrontendRuntime>;
  /** The end of what the process wrote to stderr (for error reports). */
  stderrTail(): string;
  close(): Promise<void>;
}

const STDERR_TAIL_BYTES = 16 * 1024;
/** Calls wait this long by default: a capture under heavy load can take seconds, a build longer. */
const CALL_TIMEOUT_MS = 120_000;

/** Starts `droidbus mcp` with `args` and connects to it over stdio. */
export async function startLoadSession(options: {
  index: number;
  cli: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}): Promise<LoadSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [options.cli, 'mcp', ...options.args],
    env: options.env,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    if (stderr.length > STDERR_TAIL_BYTES * 2) {
      stderr = stderr.slice(-STDERR_TAIL_BYTES);
    }
  });
  const client = new Client({ name: `droidbus-loadtest-${options.index}`, version: VERSION });
  try {
    await client.connect(transport);
  } catch (err) {
    await transport.close().catch(() => undefined);
    throw new Error(
      `droidbus mcp (session ${options.index}) did not start: ${(err as Error).message}\n${stderr.slice(-2000)}`,
    );
  }
  // What an agent's client does first.
  await client.listTools();
  const pid = transport.pid ?? -1;
  return {
    index: options.index,
    pid,
    async call(name, args, callOptions = {}) {
      const t0 = performance.now();
      let outcome: CallOutcome;
      try {
        const result = (await client.callTool({ name, arguments: args }, undefined, {
          timeout: callOptions.timeoutMs ?? CALL_TIMEOUT_MS,
        })) as CallToolResult;
        const text = answerText(result);
        outcome = {
          ok: result.isError !== true,
          code: result.isError === true ? codeOfToolText(text) : null,
          text,
          structured: (result.structuredContent ?? {}) as Record<string, unknown>,
        };
      } catch (err) {
        outcome = {
          ok: false,
          code: codeOfThrown(err),
          text: err instanceof Error ? err.message : String(err),
          structured: {},
        };
      }
      const serial = typeof args['device_serial'] === 'string' ? args['device_serial'] : null;
      callOptions.recorder?.record(name, performance.now() - t0, outcome.code, serial, outcome.text);
      return outcome;
    },
    async runtime() {
      const read = await client.readResource({ uri: 'droidbus://runtime' });
      const first = read.contents[0] as { text?: string } | undefined;
      return JSON.parse(first?.text ?? '{}') as FrontendRuntime;
    },
    stderrTail: () => stderr.slice(-STDERR_TAIL_BYTES),
    async close() {
      await client.close().catch(() => undefined);
    },
  };
}
