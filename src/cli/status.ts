import type { AdbServerState } from '../bus/messages/devices.js';
import type { HostInfo } from '../bus/messages/host.js';
import { connectControl } from '../host/control-client.js';
import { listSessionRecords } from '../store/session-records.js';
import { VERSION } from '../version.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';

const USAGE = `Usage: droidbus status [--json]

Shows the droidbus host (version, project, the address of its page, attached sessions) and every
live MCP session — attached and standalone — with the droidbus version it runs. An AI client keeps
running the droidbus it started, so after an update a session can run an older version: each one
that differs from the host (or from this droidbus when no host runs) is flagged with what to do.

  --json   print the same as JSON`;

/** One session as status shows it. */
interface StatusSession {
  pid: number;
  mode: 'attached' | 'standalone' | 'http';
  version: string | null;
  client_name: string | null;
  project: string | null;
  /** Attached: follows the host's project; standalone: why it is standalone. */
  detail: string;
  /** What to do when its version differs; null when it does not. */
  mismatch: string | null;
}

function mismatchOf(
  version: string | null,
  expected: string,
  expectedFrom: string,
  pid: number,
): string | null {
  if (version === expected) {
    return null;
  }
  return `runs droidbus ${version ?? '(an older release that does not record its version)'}, ${expectedFrom} ${expected}: restart the AI client that started it (pid ${pid}) so it starts the current droidbus`;
}

async function run(argv: string[]): Promise<number> {
  const { values } = parseCliArgs(argv, { json: { type: 'boolean' } });
  let host: HostInfo | null = null;
  let hostProblem: string | null = null;
  let adbServers: AdbServerState[] = [];
  try {
    const { client } = await connectControl();
    try {
      host = await client.request('host.info', {});
      adbServers = (await client.request('devices.list', {}).catch(() => null))?.servers ?? [];
    } finally {
      await client.close();
    }
  } catch (err) {
    hostProblem = err instanceof Error ? err.message : String(err);
  }
  const expected = host?.version ?? VERSION;
  const expectedFrom = host ? 'the host runs' : 'this droidbus is';
  const sessions: StatusSession[] = [];
  for (const s of host?.sessions ?? []) {
    if (s.kind === 'http') {
      sessions.push({
        pid: s.pid,
        mode: 'http',
        version: s.version,
        client_name: s.client_name,
        project: host?.project ?? null,
        detail: `over HTTP from ${s.remote ?? '?'} (auth: ${s.auth ?? '?'})`,
        mismatch: null,
      });
      continue;
    }
    sessions.push({
      pid: s.pid,
      mode: 'attached',
      version: s.version,
      client_name: s.client_name,
      project: s.pinned_project ?? host?.project ?? null,
      detail: s.follows_host ? "follows the host's project" : `pinned to ${s.pinned_project}`,
      mismatch: mismatchOf(s.version, expected, expectedFrom, s.pid),
    });
  }
  for (const r of listSessionRecords()) {
    sessions.push({
      pid: r.pid,
      mode: 'standalone',
      version: r.version ?? null,
      client_name: r.client_name ?? null,
      project: r.project,
      detail: r.reason,
      mismatch: mismatchOf(r.version ?? null, expected, expectedFrom, r.pid),
    });
  }
  const mismatches = sessions.filter((s) => s.mismatch !== null).length;

  if (values.json) {
    process.stdout.write(
      JSON.stringify(
        { version: VERSION, host, host_problem: hostProblem, adb_servers: adbServers, sessions, mismatches },
        null,
        2,
      ) + '\n',
    );
    return 0;
  }
  const out: string[] = [`droidbus ${VERSION} status`, ''];
  if (host) {
    out.push(
      `Host: pid ${host.pid}, droidbus ${host.version}${host.version !== VERSION ? ` (this command is ${VERSION})` : ''}`,
      `  project: ${host.project ?? 'none'}`,
      `  socket:  ${host.socket} (${host.peer_check === 'uid' ? 'other users dropped by uid' : 'protected by its mode only'})`,
    );
    if (host.http) {
      out.push(`  http:    ${host.http.url}${host.http.tls ? ' (TLS)' : ''}`);
    }
    if (host.page) {
      out.push(`  page:    ${host.page.url} (log in with the link droidbus ui prints)`);
    }
    for (const a of adbServers) {
      out.push(
        `  adb:     ${a.label} ${a.address}: ${a.up ? `up${a.version !== null ? `, protocol ${a.version}` : ''}, ${a.devices} device${a.devices === 1 ? '' : 's'}` : `unreachable (${a.message})`}`,
      );
    }
  } else {
    out.push(`Host: not running (${hostProblem ?? 'unknown'})`);
  }
  const attached = sessions.filter((s) => s.mode === 'attached');
  const standalone = sessions.filter((s) => s.mode === 'standalone');
  const line = (s: StatusSession): string[] => {
    const lines = [
      `  pid ${String(s.pid).padEnd(7)} droidbus ${(s.version ?? '?').padEnd(8)} ${(s.client_name ?? 'client not known yet').padEnd(20)} ${s.project ?? 'no project'} — ${s.detail}`,
    ];
    if (s.mismatch) {
      lines.push(`    ! version mismatch: ${s.mismatch}`);
    }
    return lines;
  };
  out.push('', `Attached sessions (${attached.length}${host ? ` of at most ${host.max_sessions}` : ''}):`);
  out.push(...(attached.length > 0 ? attached.flatMap(line) : ['  none']));
  const overHttp = sessions.filter((s) => s.mode === 'http');
  if (host?.http || overHttp.length > 0) {
    out.push('', `HTTP sessions (${overHttp.length}):`);
    out.push(...(overHttp.length > 0 ? overHttp.flatMap(line) : ['  none']));
  }
  out.push('', `Standalone sessions (${standalone.length}):`);
  out.push(...(standalone.length > 0 ? standalone.flatMap(line) : ['  none']));
  if (mismatches > 0) {
    out.push(
      '',
      `${mismatches} session${mismatches > 1 ? 's run' : ' runs'} another droidbus version: restart the AI client${mismatches > 1 ? 's' : ''} named above.`,
    );
  }
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}

export const command: CliCommand = {
  name: 'status',
  summary: 'Show the droidbus host and every live MCP session with its version.',
  usage: USAGE,
  run,
};
