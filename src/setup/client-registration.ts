import { runProcess } from '../util/exec.js';
import { which } from '../util/which.js';

/** How long `claude mcp get` / `codex mcp get` may take. */
export const DETECTION_TIMEOUT_MS = 5_000;

/** Whether an MCP client has droidbus registered. */
export interface Registration {
  client: 'claude' | 'codex';
  /** The client's CLI, when it is on PATH. */
  cliPath: string | null;
  /** True only when it is registered where it works in every folder. */
  configured: boolean;
  /** The scope Claude Code printed (`User config (…)`, `Local config (…)`); null when none was. */
  scope: string | null;
  /** The registered command line, when the client printed it. */
  registeredCommand: string | null;
  /** What the user should know (not installed, local scope only, the check timed out …). */
  note: string | null;
}

/**
 * Reads `claude mcp get droidbus` output: the `Scope:` line decides. A `local` or `project` entry
 * works in one folder only, so it does not count as configured.
 */
export function parseClaudeGet(
  stdout: string,
): Pick<Registration, 'configured' | 'scope' | 'registeredCommand' | 'note'> {
  const field = (name: string): string | null => {
    const match = new RegExp(`^\\s*${name}:\\s*(.*)$`, 'mi').exec(stdout);
    return match ? match[1]!.trim() : null;
  };
  const scope = field('Scope');
  const command = field('Command');
  const args = field('Args');
  const registeredCommand = command ? [command, args].filter(Boolean).join(' ') : null;
  const narrow = scope !== null && /^(local|project)\b/i.test(scope);
  return {
    configured: !narrow,
    scope,
    registeredCommand,
    note: narrow
      ? `registered in Claude Code's ${scope.split(/\s/)[0]!.toLowerCase()} scope, which works in one folder only; run the command above to register it for every folder`
      : null,
  };
}

/** Reads `codex mcp get droidbus --json` output (the command and args at the top or under `transport`). */
export function parseCodexGet(stdout: string): Pick<Registration, 'registeredCommand'> {
  try {
    const json = JSON.parse(stdout) as Record<string, unknown>;
    const holder = (
      typeof json['command'] === 'string' ? json : (json['transport'] as Record<string, unknown> | undefined)
    ) as Record<string, unknown> | undefined;
    const command = typeof holder?.['command'] === 'string' ? holder['command'] : null;
    const args = Array.isArray(holder?.['args']) ? (holder['args'] as unknown[]).map(String) : [];
    return { registeredCommand: command ? [command, ...args].join(' ') : null };
  } catch {
    return { registeredCommand: null };
  }
}

async function detect(client: 'claude' | 'codex', args: string[], envPath: string): Promise<Registration> {
  const cliPath = which(client, envPath);
  const base: Registration = {
    client,
    cliPath,
    configured: false,
    scope: null,
    registeredCommand: null,
    note: null,
  };
  if (!cliPath) {
    return { ...base, note: `the ${client} command is not on PATH (not installed, or installed elsewhere)` };
  }
  // From `/`, so a registration bound to some other folder does not count.
  const result = await runProcess(cliPath, args, { cwd: '/', timeoutMs: DETECTION_TIMEOUT_MS });
  if (result.timedOut) {
    return {
      ...base,
      note: `${client} ${args.join(' ')} did not answer within ${DETECTION_TIMEOUT_MS / 1000} s`,
    };
  }
  if (result.spawnError) {
    return { ...base, note: `could not run ${client}: ${result.spawnError}` };
  }
  if (result.code !== 0) {
    return { ...base, note: 'droidbus is not registered' };
  }
  if (client === 'claude') {
    return { ...base, ...parseClaudeGet(result.stdout) };
  }
  return { ...base, configured: true, ...parseCodexGet(result.stdout) };
}

/** Whether Claude Code has droidbus registered (`claude mcp get droidbus`, run from `/`). */
export function claudeRegistration(envPath: string = process.env['PATH'] ?? ''): Promise<Registration> {
  return detect('claude', ['mcp', 'get', 'droidbus'], envPath);
}

/** Whether Codex has droidbus registered (`codex mcp get droidbus --json`, run from `/`). */
export function codexRegistration(envPath: string = process.env['PATH'] ?? ''): Promise<Registration> {
  return detect('codex', ['mcp', 'get', 'droidbus', '--json'], envPath);
}
