import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI } from './paths.js';

export interface McpSessionHandle {
  client: Client;
  /** The pid of the `droidbus mcp` process. */
  pid: number;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** The arguments that serve every tool: for tests of tools outside the default toolsets. */
export const EVERY_TOOLSET = ['--toolsets', 'all'];

/**
 * Starts the built `droidbus mcp` over stdio with the official SDK client, as an agent would.
 * `env` is merged over the test's environment; pass DROIDBUS_HOME to isolate the data directory.
 */
export async function startMcp(
  args: string[] = [],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<McpSessionHandle> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: { ...(process.env as Record<string, string>), ...options.env },
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'droidbus-e2e', version: '1.0.0' });
  try {
    // Under the 60 s hook timeout, so a server that never answers fails here with what it said.
    await client.connect(transport, { timeout: 30_000 });
  } catch (err) {
    await client.close().catch(() => undefined);
    throw new Error(
      `droidbus mcp did not answer initialize: ${String(err)}\nits stderr:\n${stderr.slice(-2000)}`,
      {
        cause: err,
      },
    );
  }
  return { client, pid: transport.pid!, stderr: () => stderr, close: () => client.close() };
}
