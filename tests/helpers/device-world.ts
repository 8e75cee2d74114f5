/**
 * A whole droidbus world for an end-to-end test: a private adb server, a `droidbus sim` farm, and
 * `droidbus mcp` (the built CLI) driven by the SDK client, each with its own temp DROIDBUS_HOME.
 *
 *   const world = await startDeviceWorld({ devices: 2, dumpLatencyMs: 100 });
 *   const r = await world.call('list_clickable_elements', { device_serial: world.serials[0] });
 *   await world.stop();
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startAdbServer } from './adb-server.js';
import type { AdbServer } from './adb-server.js';
import { startMcp } from './mcp-client.js';
import type { McpSessionHandle } from './mcp-client.js';
import { tempDir } from './paths.js';
import { startSimFarm } from './sim-farm.js';
import { until } from './until.js';
import type { SimFarm, SimFarmOptions } from './sim-farm.js';

export interface ToolOutcome {
  text: string;
  structured: Record<string, unknown>;
  isError: boolean;
  raw: CallToolResult;
}

export interface DeviceWorld {
  server: AdbServer;
  farm: SimFarm;
  mcp: McpSessionHandle;
  home: string;
  serials: string[];
  /** Calls a tool; MCP errors (invalid_params …) reject, tool errors resolve with isError. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolOutcome>;
  /** Runs `adb -s SERIAL shell CMD` with the real adb client. */
  shell(serial: string, command: string): Promise<string>;
  /** The sim's own counters (`sim stats`). */
  simStats(serial: string): Promise<{
    dumps: number;
    overlapping_dumps: number;
    shell_commands: number;
    last_input: unknown[] | null;
  }>;
  stop(): Promise<void>;
}

/**
 * Starts the adb server, the farm and one MCP session. The session serves every toolset unless
 * mcpArgs names its own with --toolsets: these tests drive the tools, while the default listing
 * is tested where it is the subject (tests/e2e/mcp-stdio.test.ts, tests/guards/budgets.test.ts).
 */
export async function startDeviceWorld(
  farmOptions: SimFarmOptions = {},
  mcpArgs: string[] = [],
  extraEnv: Record<string, string> = {},
): Promise<DeviceWorld> {
  const home = tempDir('droidbus-world-');
  // Each part started is stopped again when a later part fails, and the error names the part:
  // a world half started must not outlive its test file (tests/global-setup.ts counts leftovers).
  const started: (() => Promise<unknown>)[] = [async () => home.remove()];
  const step = async <T>(
    what: string,
    start: () => Promise<T>,
    stop: (part: T) => Promise<unknown>,
  ): Promise<T> => {
    try {
      const part = await start();
      started.unshift(() => stop(part));
      return part;
    } catch (err) {
      for (const undo of started) {
        await undo().catch(() => undefined);
      }
      throw new Error(
        `starting the device world (${what}): ${err instanceof Error ? err.message : String(err)}`,
        {
          cause: err,
        },
      );
    }
  };
  const server = await step(
    'the adb server',
    () => startAdbServer(),
    (s) => s.stop(),
  );
  const farm = await step(
    'the sim farm',
    () => startSimFarm(server, farmOptions),
    (f) => f.stop(),
  );
  const env = { ...(server.env as Record<string, string>), DROIDBUS_HOME: home.dir, ...extraEnv };
  const toolsets = mcpArgs.some((a) => a.startsWith('--toolsets')) ? [] : ['--toolsets', 'all'];
  const mcp = await step(
    'droidbus mcp',
    () => startMcp([...toolsets, ...mcpArgs], { env }),
    (m) => m.close(),
  );
  const shell = async (serial: string, command: string): Promise<string> => {
    const r = await server.adb(['-s', serial, 'shell', command]);
    return r.stdout;
  };
  return {
    server,
    farm,
    mcp,
    home: home.dir,
    serials: farm.devices.map((d) => d.serial),
    async call(name, args = {}) {
      const raw = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
      const text = raw.content
        .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
        .map((c) => c.text)
        .join('\n');
      return {
        text,
        structured: (raw.structuredContent ?? {}) as Record<string, unknown>,
        isError: raw.isError === true,
        raw,
      };
    },
    shell,
    async simStats(serial) {
      return JSON.parse(await shell(serial, 'sim stats')) as Awaited<ReturnType<DeviceWorld['simStats']>>;
    },
    async stop() {
      await mcp.close().catch(() => undefined);
      await farm.stop().catch(() => undefined);
      await server.stop().catch(() => undefined);
      home.remove();
    },
  };
}

/** Polls `check` until it returns a value that is not undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  what = 'the condition',
): Promise<T> {
  return until(what, check, timeoutMs, { retryErrors: true });
}
