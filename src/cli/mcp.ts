import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { startActorSystem } from '../actors/runtime.js';
import type { BusClient } from '../bus/client.js';
import { ProjectArgumentError, selectProject } from '../mcp/project-select.js';
import { createMcpServer } from '../mcp/server.js';
import { createSessionState, sessionOrigin } from '../mcp/session.js';
import { TOOLSET_NAMES, ToolsetError, describeToolsets, parseToolsets } from '../mcp/toolsets.js';
import type { Toolset } from '../mcp/toolsets.js';
import { projectResources } from '../mcp/project-resources.js';
import { runtimeResource } from '../mcp/runtime-stats.js';
import { readSettings, updateSettings } from '../store/settings.js';
import { startEventLoopProbe } from '../util/event-loop.js';
import { logger } from '../util/log.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';

const log = logger('mcp');

const USAGE = `Usage: droidbus mcp [--project PATH] [--toolsets core,ui,device-admin] [--attach-only]

Serves MCP over stdio for one agent session (Claude Code, Codex, any MCP client).

  --project PATH     the Android project (default: the Gradle build around the working directory,
                     else the last active project)
  --toolsets LIST    serve only these toolsets (comma-separated):
${describeToolsets()}
  --attach-only      refuse to run standalone when no droidbus host accepts the session (exit 2)

Logs go to stderr (DROIDBUS_LOG=error|warn|info|debug). stdout carries only the MCP protocol.`;

/** Reads `--toolsets` before general parsing so every form of a bad value gets the toolset message. */
function toolsetsFrom(argv: string[]): { toolsets: Toolset[]; rest: string[] } {
  const rest: string[] = [];
  let toolsets: Toolset[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--toolsets') {
      const value = argv[i + 1];
      toolsets = parseToolsets(value === undefined || value.startsWith('--') ? undefined : value);
      i++;
    } else if (arg.startsWith('--toolsets=')) {
      toolsets = parseToolsets(arg.slice('--toolsets='.length));
    } else {
      rest.push(arg);
    }
  }
  return { toolsets: toolsets ?? [...TOOLSET_NAMES], rest };
}

/** Waits for a running build of this process to end, up to the build timeout. */
async function waitForBuild(bus: BusClient): Promise<void> {
  const timeoutMs = (readSettings().mcp.build_timeout_sec + 30) * 1000;
  try {
    const r = await bus.request(
      'build.wait_idle',
      { timeout_ms: timeoutMs },
      { timeoutMs: timeoutMs + 10_000 },
    );
    if (!r.idle) {
      log.warn('the build did not end within the build timeout; stopping it', { build: r.build_id });
    }
  } catch (err) {
    log.warn('could not wait for the running build', { error: String(err) });
  }
}

async function run(argv: string[]): Promise<number> {
  let toolsets: Toolset[];
  let rest: string[];
  try {
    ({ toolsets, rest } = toolsetsFrom(argv));
  } catch (err) {
    if (err instanceof ToolsetError) {
      process.stderr.write(`droidbus mcp: ${err.message}\nThe toolsets are:\n${describeToolsets()}\n`);
      return 2;
    }
    throw err;
  }
  const { values } = parseCliArgs(rest, {
    project: { type: 'string' },
    'attach-only': { type: 'boolean' },
  });

  let selection;
  try {
    selection = selectProject(values.project, process.cwd());
  } catch (err) {
    if (err instanceof ProjectArgumentError) {
      throw new UsageError(err.message);
    }
    throw err;
  }

  // Attaching to a host comes with `droidbus host`; until one runs, every session is standalone.
  const standaloneReason = 'no droidbus host is running';
  if (values['attach-only']) {
    process.stderr.write(`droidbus mcp: cannot attach (--attach-only): ${standaloneReason}\n`);
    return 2;
  }

  const system = startActorSystem();
  const session = createSessionState({
    project: selection,
    mode: { kind: 'standalone', standaloneReason, followsHost: false, pinnedProject: null },
    toolsets,
    bus: undefined as never,
  });
  session.bus = system.client(sessionOrigin(session));
  // Warm the main worker while the client initializes, so the first tool call does not pay for it.
  system.supervisor
    .spawn('system')
    .catch((err: unknown) => log.warn('could not start the system actor', { error: String(err) }));

  if (
    selection.root &&
    (selection.selectedBy === 'argument' || selection.selectedBy === 'working_directory')
  ) {
    const root = selection.root;
    updateSettings((s) => {
      s.last_active_project = root;
    }).catch((err: unknown) => log.warn('could not record the last active project', { error: String(err) }));
  }

  const probe = startEventLoopProbe();
  const server = createMcpServer({
    session,
    resources: [runtimeResource(probe), ...projectResources()],
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<'client' | 'signal'>((resolve) => {
    let done = false;
    const finish = (why: 'client' | 'signal') => (): void => {
      if (!done) {
        done = true;
        resolve(why);
      }
    };
    transport.onclose = finish('client');
    process.stdin.once('end', finish('client'));
    process.stdin.once('close', finish('client'));
    process.once('SIGTERM', finish('signal'));
    process.once('SIGINT', finish('signal'));
  });
  await server.connect(transport);
  log.info('serving MCP over stdio', { project: selection.root, toolsets, mode: 'standalone' });
  const why = await closed;
  await server.close().catch(() => undefined);
  if (why === 'client' && system.supervisor.list().some((a) => a.address === 'build')) {
    // A client that goes away does not stop the build it started: it is finished and recorded
    // (up to the build timeout) before this process exits. A signal stops it instead.
    await waitForBuild(system.client({ kind: 'cli' }));
  }
  await system.shutdown('the MCP client went away');
  return 0;
}

export const command: CliCommand = {
  name: 'mcp',
  summary: 'Serve MCP over stdio (attaches to a running host, else standalone).',
  usage: USAGE,
  run,
};
