import path from 'node:path';
import { HostUnreachableError, connectControl } from '../host/control-client.js';
import { HostStartError, startHost } from '../host/host.js';
import type { Host } from '../host/host.js';
import type { HttpFrontendOptions } from '../host/http/http-frontend.js';
import { ListenAddressError, parseListenAddress } from '../host/http/listen-address.js';
import { ProjectArgumentError, selectProject } from '../mcp/project-select.js';
import { BusError } from '../bus/errors.js';
import { VERSION } from '../version.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';

const USAGE = `Usage: droidbus host [--project PATH] [--http [ADDR:PORT]] [--tls-self-signed | --tls-cert FILE --tls-key FILE]
       droidbus host open PATH
       droidbus host close

Runs the droidbus host: one bus and every actor (devices, logcat, builds) shared by the agent
sessions that attach to it. Each \`droidbus mcp\` an AI client starts attaches to a running host
within 1.5 s (at most 16 at once), and runs standalone otherwise. The host listens on
<data dir>/host.sock (mode 0600, in the 0700 data directory); connections from other users are
dropped. Stop it with Ctrl-C (or SIGTERM): attached sessions carry on standalone.

  --project PATH   the project the host opens (default: the Gradle build around the working
                   directory, else the last active project)
  --http [ADDR:PORT]
                   also serve MCP over Streamable HTTP at /mcp (default 127.0.0.1:8765), for
                   agents on other machines and web clients. Every request needs the bearer
                   token (droidbus token) or an OAuth access token approved with droidbus approve.
                   A non-loopback address (0.0.0.0) exposes every tool to the network: use TLS.
  --tls-self-signed
                   serve HTTPS with a self-signed certificate kept in the data directory
  --tls-cert FILE, --tls-key FILE
                   serve HTTPS with this certificate and key (PEM)

  open PATH        the running host opens another project (sessions that follow the host move
                   with it; sessions pinned to the old project get an error for project tools)
  close            the running host closes its project

Only the host's person changes its project: no agent can.`;

/** `droidbus host open|close`: asks the running host to change its project. */
async function changeProject(project: string | null): Promise<number> {
  let connection;
  try {
    connection = await connectControl();
  } catch (err) {
    if (err instanceof HostUnreachableError) {
      process.stderr.write(`droidbus host: ${err.message}\n`);
      return err.kind === 'absent' ? 1 : 2;
    }
    throw err;
  }
  try {
    const result = await connection.client.request('host.set_project', { project });
    process.stdout.write(
      result.project
        ? `The droidbus host now has ${result.project} open.\n`
        : `The droidbus host has no project open${result.previous ? ` (it closed ${result.previous})` : ''}.\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof BusError) {
      process.stderr.write(`droidbus host: ${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    await connection.client.close();
  }
}

/**
 * Takes `--http` (with an optional ADDR:PORT after it, or `--http=ADDR:PORT`) out of the
 * arguments: parseArgs has no option with an optional value.
 */
function httpFrom(argv: string[]): { http: string | null; rest: string[] } {
  const rest: string[] = [];
  let http: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--http') {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('-')) {
        http = next;
        i++;
      } else {
        http = '';
      }
    } else if (arg.startsWith('--http=')) {
      http = arg.slice('--http='.length);
    } else {
      rest.push(arg);
    }
  }
  return { http, rest };
}

function httpOptions(
  address: string | null,
  values: { 'tls-cert'?: string; 'tls-key'?: string; 'tls-self-signed'?: boolean },
): HttpFrontendOptions | null {
  const certFile = values['tls-cert'];
  const keyFile = values['tls-key'];
  const selfSigned = values['tls-self-signed'] === true;
  if (address === null) {
    if (certFile !== undefined || keyFile !== undefined || selfSigned) {
      throw new UsageError('--tls-cert, --tls-key and --tls-self-signed need --http');
    }
    return null;
  }
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new UsageError('--tls-cert and --tls-key go together');
  }
  if (selfSigned && certFile !== undefined) {
    throw new UsageError('choose --tls-self-signed or --tls-cert/--tls-key, not both');
  }
  let listen;
  try {
    listen = parseListenAddress(address);
  } catch (err) {
    if (err instanceof ListenAddressError) {
      throw new UsageError(err.message);
    }
    throw err;
  }
  return {
    address: listen,
    tls:
      certFile !== undefined && keyFile !== undefined
        ? { kind: 'files', certFile: path.resolve(certFile), keyFile: path.resolve(keyFile) }
        : selfSigned
          ? { kind: 'self-signed' }
          : null,
  };
}

/** What the host's person needs to know about its HTTP frontend. */
function httpLines(http: Host['http']): string[] {
  if (!http) {
    return [];
  }
  const lines = [
    `http: MCP at ${http.url}/mcp (token: droidbus token; OAuth approvals: droidbus approve CODE)`,
  ];
  if (http.tls) {
    lines.push(
      `tls: ${http.tls.certFile}${http.tls.generated ? ' (generated now)' : ''}, SHA-256 ${http.tls.fingerprint256}`,
    );
  }
  return lines;
}

async function run(argv: string[]): Promise<number> {
  if (argv[0] === 'open') {
    const { positionals } = parseCliArgs(argv.slice(1), {}, true);
    if (positionals.length !== 1) {
      throw new UsageError('droidbus host open needs exactly one PATH');
    }
    return changeProject(path.resolve(positionals[0]!));
  }
  if (argv[0] === 'close') {
    parseCliArgs(argv.slice(1), {});
    return changeProject(null);
  }
  const { http: httpAddress, rest } = httpFrom(argv);
  const { values } = parseCliArgs(rest, {
    project: { type: 'string' },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    'tls-self-signed': { type: 'boolean' },
  });
  const http = httpOptions(httpAddress, values);
  let project: string | null;
  try {
    project = selectProject(values.project, process.cwd()).root;
  } catch (err) {
    if (err instanceof ProjectArgumentError) {
      throw new UsageError(err.message);
    }
    throw err;
  }

  let host;
  try {
    host = await startHost({
      project,
      ...(http ? { http } : {}),
      notify: (line) => process.stdout.write(`${line}\n`),
    });
  } catch (err) {
    if (err instanceof HostStartError) {
      process.stderr.write(`droidbus host: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  // Quitting cancels a running build first (recorded as cancelled because the host quit) and waits
  // up to 1.5 s for its record, so the sessions' errors can say what happened to it.
  const quitter = host.system.client({ kind: 'host_quit' });
  host.beforeFailingInflight(async (signal) => {
    if (!host.system.supervisor.list().some((a) => a.address === 'build')) {
      return null; // No build actor has run: nothing to cancel, and nothing to wait for.
    }
    const status = await quitter
      .request('build.status', { root: null }, { signal, timeoutMs: 1_000 })
      .catch(() => null);
    if (!status?.running) {
      return null;
    }
    const cancelled = await quitter
      .request('build.cancel', {}, { signal, timeoutMs: 1_500 })
      .catch(() => null);
    if (cancelled?.record) {
      return `Its running build ${cancelled.record.id} (${cancelled.record.task}) was cancelled and recorded as cancelled because the host quit.`;
    }
    return 'Its running build was being cancelled when the host quit.';
  });
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    signals++;
    if (signals > 1) {
      process.stderr.write(`droidbus host: ${signal} again; exiting now\n`);
      process.exit(130);
    }
    process.stderr.write(`droidbus host: ${signal}: quitting (attached sessions continue standalone)\n`);
    void host.stop('the droidbus host quit');
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  const info = host.info();
  process.stdout.write(
    [
      `droidbus host ${VERSION} (pid ${process.pid}) listening on ${host.socketPath}`,
      `project: ${info.project ?? 'none (open one with: droidbus host open PATH)'}`,
      `peer check: ${info.peer_check === 'uid' ? 'connections from other users are dropped' : "the socket's 0600 mode only (the native helper is not built)"}`,
      ...httpLines(host.http),
      'Stop with Ctrl-C; attached sessions then continue standalone.',
      '',
    ].join('\n'),
  );
  for (const warning of host.http?.warnings ?? []) {
    process.stderr.write(`droidbus host: WARNING: ${warning}\n`);
  }
  await host.stopped;
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
  return 0;
}

export const command: CliCommand = {
  name: 'host',
  summary: 'Run the droidbus host that agent sessions attach to (devices, logcat, builds shared).',
  usage: USAGE,
  run,
};
