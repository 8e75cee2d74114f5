import path from 'node:path';
import { HostUnreachableError, connectControl } from '../host/control-client.js';
import { HostStartError, startHost } from '../host/host.js';
import { ProjectArgumentError, selectProject } from '../mcp/project-select.js';
import { BusError } from '../bus/errors.js';
import { VERSION } from '../version.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';

const USAGE = `Usage: droidbus host [--project PATH]
       droidbus host open PATH
       droidbus host close

Runs the droidbus host: one bus and every actor (devices, logcat, builds) shared by the agent
sessions that attach to it. Each \`droidbus mcp\` an AI client starts attaches to a running host
within 1.5 s (at most 16 at once), and runs standalone otherwise. The host listens on
<data dir>/host.sock (mode 0600, in the 0700 data directory); connections from other users are
dropped. Stop it with Ctrl-C (or SIGTERM): attached sessions carry on standalone.

  --project PATH   the project the host opens (default: the Gradle build around the working
                   directory, else the last active project)

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
  const { values } = parseCliArgs(argv, { project: { type: 'string' } });
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
    host = await startHost({ project });
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
      'Stop with Ctrl-C; attached sessions then continue standalone.',
      '',
    ].join('\n'),
  );
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
