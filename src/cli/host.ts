import path from 'node:path';
import { HostUnreachableError, connectControl } from '../host/control-client.js';
import { startHost } from '../host/host.js';
import { HostStartError } from '../host/host-listen.js';
import type { Host } from '../host/host.js';
import type { HttpFrontendOptions } from '../host/http/http-frontend.js';
import { ListenAddressError, parseListenAddress } from '../host/http/listen-address.js';
import type { TlsChoice } from '../host/http/tls.js';
import { DEFAULT_PAGE_HOST, DEFAULT_PAGE_PORT } from '../host/ui/page-server.js';
import type { PageOptions } from '../host/ui/page-server.js';
import { ProjectArgumentError, selectProject } from '../mcp/project-select.js';
import { BusError } from '../bus/errors.js';
import { VERSION } from '../version.js';
import { ADB_SERVER_USAGE, applyAdbServers } from './adb-server-args.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';

const USAGE = `Usage: droidbus host [--project PATH] [--http [ADDR:PORT]] [--ui [ADDR:]PORT | --no-ui]
                     [--tls-self-signed | --tls-cert FILE --tls-key FILE]
                     [--adb-server [NAME=]ADDR ...] [--allow-remote-adb-server]
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
  --ui [ADDR:]PORT the host's page (devices, sessions, builds, logcat, crashes, trust, approvals)
                   on this address (default 127.0.0.1:8766, or under /ui of the --http port).
                   It opens only with the one-time login link the host prints (droidbus ui
                   prints a new one). A non-loopback address exposes it to the network.
  --no-ui          serve no page
  --tls-self-signed
                   serve HTTPS with a self-signed certificate kept in the data directory
  --tls-cert FILE, --tls-key FILE
                   serve HTTPS with this certificate and key (PEM)
${ADB_SERVER_USAGE}

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
  values: { 'tls-cert'?: string; 'tls-key'?: string; 'tls-self-signed'?: boolean; ui?: string },
): HttpFrontendOptions | null {
  const certFile = values['tls-cert'];
  const keyFile = values['tls-key'];
  const selfSigned = values['tls-self-signed'] === true;
  if (address === null) {
    if ((certFile !== undefined || keyFile !== undefined || selfSigned) && values.ui === undefined) {
      throw new UsageError('--tls-cert, --tls-key and --tls-self-signed need --http or --ui');
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

/** The TLS the options ask for (checked by httpOptions), or null. */
function tlsChoice(values: {
  'tls-cert'?: string;
  'tls-key'?: string;
  'tls-self-signed'?: boolean;
}): TlsChoice | null {
  const certFile = values['tls-cert'];
  const keyFile = values['tls-key'];
  if (certFile !== undefined && keyFile !== undefined) {
    return { kind: 'files', certFile: path.resolve(certFile), keyFile: path.resolve(keyFile) };
  }
  return values['tls-self-signed'] === true ? { kind: 'self-signed' } : null;
}

/**
 * Where the page goes: `--ui [ADDR:]PORT` (the port is required), else under /ui of `--http`,
 * else 127.0.0.1:8766 (any free port when that one is taken); `--no-ui` serves none.
 */
function pageOptions(
  values: {
    ui?: string;
    'no-ui'?: boolean;
    'tls-cert'?: string;
    'tls-key'?: string;
    'tls-self-signed'?: boolean;
  },
  http: HttpFrontendOptions | null,
): PageOptions | undefined {
  if (values['no-ui']) {
    if (values.ui !== undefined) {
      throw new UsageError('choose --ui or --no-ui, not both');
    }
    return undefined;
  }
  if (values.ui === undefined) {
    return http
      ? { mode: 'http' }
      : {
          mode: 'listen',
          address: { host: DEFAULT_PAGE_HOST, port: DEFAULT_PAGE_PORT },
          fallbackToAnyPort: true,
          tls: null,
        };
  }
  const value = values.ui;
  if (!/^\d{1,5}$/.test(value) && !/(^|[^:]):\d{1,5}$|\]:\d{1,5}$/.test(value)) {
    throw new UsageError(
      `--ui takes [ADDR:]PORT (8766, 127.0.0.1:8766, [::1]:8766); '${value.slice(0, 100)}' names no port`,
    );
  }
  let address;
  try {
    address = parseListenAddress(value);
  } catch (err) {
    if (err instanceof ListenAddressError) {
      throw new UsageError(err.message.replace('--http', '--ui'));
    }
    throw err;
  }
  return { mode: 'listen', address, fallbackToAnyPort: false, tls: http ? http.tls : tlsChoice(values) };
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
    ui: { type: 'string' },
    'no-ui': { type: 'boolean' },
    'adb-server': { type: 'string', multiple: true },
    'allow-remote-adb-server': { type: 'boolean' },
  });
  for (const warning of applyAdbServers(values['adb-server'], values['allow-remote-adb-server'] === true)) {
    process.stderr.write(`droidbus host: ${warning}\n`);
  }
  const http = httpOptions(httpAddress, values);
  const ui = pageOptions(values, http);
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
      ...(ui ? { ui } : {}),
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
      ...(host.page
        ? [
            `page: ${host.page.newLoginLink().url}`,
            '      (a one-time login link; droidbus ui prints a new one)',
          ]
        : []),
      'Stop with Ctrl-C; attached sessions then continue standalone.',
      '',
    ].join('\n'),
  );
  for (const warning of [...(host.http?.warnings ?? []), ...(host.page?.warnings ?? [])]) {
    process.stderr.write(`droidbus host: WARNING: ${warning}\n`);
  }
  await host.stopped;
  process.stdout.write('droidbus host stopped.\n');
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
