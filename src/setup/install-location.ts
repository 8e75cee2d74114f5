import { realpathSync } from 'node:fs';
import path from 'node:path';
import { which } from '../util/which.js';

/** How an MCP client starts this installation's `droidbus mcp`. */
export interface LaunchCommand {
  command: string;
  args: string[];
}

export interface InstallLocation {
  /** The built CLI (dist/cli.js) this process runs, symlinks resolved. */
  cliPath: string;
  /** The command to register; null when the location would not survive (see `problem`). */
  launch: LaunchCommand | null;
  /** Why this installation must not be registered (it runs from a temporary folder); else null. */
  problem: string | null;
  /** `global`: the `droidbus` on PATH is this installation; `node`: run through Node by path. */
  via: 'global' | 'node';
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * Why `file` lives in a folder that does not last, or null. Package runners unpack into caches
 * that are pruned or replaced: npx (`_npx`), pnpm dlx (`dlx-`), bunx (`bunx-`).
 */
export function temporaryLocationReason(file: string): string | null {
  const parts = file.split(/[\\/]+/);
  if (parts.includes('_npx')) {
    return `droidbus runs from the npx cache (${file}), which npx prunes and replaces: a client registered with this path would stop working. Install droidbus for good (npm install -g droidbus, or a clone built with npm ci) and run droidbus setup from there.`;
  }
  if (parts.some((p) => p.startsWith('dlx-') || p.startsWith('bunx-'))) {
    return `droidbus runs from a package runner's temporary folder (${file}): a client registered with this path would stop working. Install droidbus for good and run droidbus setup from there.`;
  }
  return null;
}

/**
 * This installation's absolute, stable launch command: the `droidbus` on PATH when it is this
 * very installation (a global install), else Node and the absolute path of dist/cli.js.
 */
export function installLocation(
  options: { cliPath?: string; nodePath?: string; envPath?: string } = {},
): InstallLocation {
  const cliPath = real(options.cliPath ?? process.argv[1] ?? '');
  const nodePath = options.nodePath ?? process.execPath;
  const problem = temporaryLocationReason(cliPath);
  if (problem) {
    return { cliPath, launch: null, problem, via: 'node' };
  }
  const onPath = which('droidbus', options.envPath ?? process.env['PATH'] ?? '');
  if (onPath && real(onPath) === cliPath) {
    return { cliPath, launch: { command: onPath, args: ['mcp'] }, problem: null, via: 'global' };
  }
  return { cliPath, launch: { command: nodePath, args: [cliPath, 'mcp'] }, problem: null, via: 'node' };
}

/** Quotes one word for a POSIX shell (only when it needs it). */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_/.,:@%+=-]+$/.test(word)) {
    return word;
  }
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The `claude mcp add` line for this launch command (user scope: it works in every folder). */
export function claudeAddCommand(launch: LaunchCommand): string {
  return [
    'claude',
    'mcp',
    'add',
    '--scope',
    'user',
    '--transport',
    'stdio',
    'droidbus',
    '--',
    launch.command,
    ...launch.args,
  ]
    .map(shellQuote)
    .join(' ');
}

/** The `codex mcp add` line (Codex has no scopes: it always writes the user's config). */
export function codexAddCommand(launch: LaunchCommand): string {
  return ['codex', 'mcp', 'add', 'droidbus', '--', launch.command, ...launch.args].map(shellQuote).join(' ');
}

/**
 * The Codex `tool_timeout_sec` that fits droidbus's longest call: a build may run for the build
 * timeout (settings mcp.build_timeout_sec), and Codex cuts any tool call at 60 s unless its
 * `[mcp_servers.<name>]` table says otherwise (`codex mcp add` has no flag for it). A minute more
 * covers what follows the build in one call (install and launch, the test report).
 */
export function codexToolTimeoutSec(buildTimeoutSec: number): number {
  return buildTimeoutSec + 60;
}
