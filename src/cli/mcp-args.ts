/**
 * `droidbus mcp`'s command line: its usage text and what the arguments ask for.
 */
import { ProjectArgumentError, selectProject } from '../mcp/project-select.js';
import { DEFAULT_TOOLSETS, ToolsetError, describeToolsets, parseToolsets } from '../mcp/toolsets.js';
import type { Toolset } from '../mcp/toolsets.js';
import { parseCliArgs } from './args.js';
import { UsageError } from './command.js';

/** How long an --attach-only session waits for a host to come back after its host went away. */
const DEFAULT_HOST_WAIT_S = 60;

export const USAGE = `Usage: droidbus mcp [--project PATH] [--toolsets core,ui,device-admin,inspect|all] [--attach-only [--host-wait S]] [--inline]

Serves MCP over stdio for one agent session (Claude Code, Codex, any MCP client). It attaches to a
running droidbus host when the host accepts it within 1.5 s, and otherwise runs standalone with
its own actors. If the host quits later, the session carries on standalone.

  --project PATH     the Android project (default: the Gradle build around the working directory;
                     attached, the host's project; standalone, else the last active project)
  --toolsets LIST    serve these toolsets (comma-separated; all serves every one); without it
                     ${DEFAULT_TOOLSETS.join(', ')} are served, and the others need --toolsets to name them:
${describeToolsets()}
  --attach-only      never run standalone: exit 2 when no droidbus host accepts the session; when
                     the host goes away later, attach again to the next host that starts within
                     --host-wait seconds (calls answer that it is away meanwhile), else exit 1
  --host-wait S      with --attach-only: seconds to wait for a host to come back (default ${DEFAULT_HOST_WAIT_S};
                     0 exits at once)
  --inline           run standalone with the actors on this process's main thread instead of
                     worker threads (as DROIDBUS_INLINE=1 does): for load tests that show what
                     the worker threads buy, not for everyday use

Logs go to stderr (DROIDBUS_LOG=error|warn|info|debug). stdout carries only the MCP protocol.`;

/** Reads `--toolsets` before general parsing so every form of a bad value gets the toolset message. */
function toolsetsFrom(argv: string[]): { toolsets: Toolset[]; explicit: boolean; rest: string[] } {
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
  // Without --toolsets every toolset is served except the opt-in ones.
  return { toolsets: toolsets ?? [...DEFAULT_TOOLSETS], explicit: toolsets !== undefined, rest };
}

/** What the command line asked for. */
export interface McpArgs {
  toolsets: Toolset[];
  /** --toolsets was given (the host is told only then). */
  explicit: boolean;
  attachOnly: boolean;
  /** --attach-only: seconds to wait for a host to come back after the host went away. */
  hostWaitS: number;
  inline: boolean;
  selection: ReturnType<typeof selectProject>;
  /** How this session chose its project itself (an argument, the working directory), else null. */
  ownChoice: 'argument' | 'working_directory' | null;
}

/** The arguments, or the exit code after saying what is wrong with --toolsets. */
export function parseArgs(argv: string[]): McpArgs | number {
  let parsedToolsets: ReturnType<typeof toolsetsFrom>;
  try {
    parsedToolsets = toolsetsFrom(argv);
  } catch (err) {
    if (err instanceof ToolsetError) {
      process.stderr.write(`droidbus mcp: ${err.message}\nThe toolsets are:\n${describeToolsets()}\n`);
      return 2;
    }
    throw err;
  }
  const { toolsets, explicit, rest } = parsedToolsets;
  const { values } = parseCliArgs(rest, {
    project: { type: 'string' },
    'attach-only': { type: 'boolean' },
    'host-wait': { type: 'string' },
    inline: { type: 'boolean' },
  });
  const hostWait = values['host-wait'];
  if (hostWait !== undefined && (!/^\d{1,5}$/.test(hostWait) || values['attach-only'] !== true)) {
    throw new UsageError(
      values['attach-only'] !== true
        ? '--host-wait goes with --attach-only (a session that may run standalone does so when its host goes)'
        : `--host-wait must be a whole number of seconds, not '${hostWait}'`,
    );
  }
  const attachOnly = values['attach-only'] === true;
  const inline = values.inline === true;
  if (inline && attachOnly) {
    throw new UsageError('--inline runs standalone, so it cannot go with --attach-only');
  }
  let selection;
  try {
    selection = selectProject(values.project, process.cwd());
  } catch (err) {
    if (err instanceof ProjectArgumentError) {
      throw new UsageError(err.message);
    }
    throw err;
  }
  // Only a project this session chose itself is asked for; the last active one is a standalone fallback.
  const ownChoice =
    selection.selectedBy === 'argument' || selection.selectedBy === 'working_directory'
      ? selection.selectedBy
      : null;
  const hostWaitS = hostWait === undefined ? DEFAULT_HOST_WAIT_S : Number(hostWait);
  return { toolsets, explicit, attachOnly, hostWaitS, inline, selection, ownChoice };
}
