import { spawn } from 'node:child_process';
import { BusError } from '../bus/errors.js';
import { HostUnreachableError, connectControl } from '../host/control-client.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';

const USAGE = `Usage: droidbus ui [--no-open]

Prints a new one-time login link to the running droidbus host's page (devices, sessions, builds,
logcat, crashes, debug sessions, activity, trust and approvals) and opens it in your browser.
The link works once and for an hour; the browser then stays logged in for a day (until the host
quits). Only you, at this machine, can get a link: agents cannot.

  --no-open   only print the link`;

/** The command that opens a URL in the desktop's browser, or null when there is no desktop. */
function opener(url: string): { cmd: string; args: string[] } | null {
  switch (process.platform) {
    case 'darwin':
      return { cmd: 'open', args: [url] };
    case 'win32':
      // `start` is a cmd built-in; the empty title keeps the URL from being taken as one.
      return { cmd: 'cmd', args: ['/c', 'start', '""', url.replace(/&/g, '^&')] };
    default:
      return process.env['DISPLAY'] || process.env['WAYLAND_DISPLAY']
        ? { cmd: 'xdg-open', args: [url] }
        : null;
  }
}

/** Starts the browser and does not wait for it; false when it could not be started. */
function openInBrowser(url: string): Promise<boolean> {
  const how = opener(url);
  if (!how) {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const child = spawn(how.cmd, how.args, { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

async function run(argv: string[]): Promise<number> {
  const { values } = parseCliArgs(argv, { 'no-open': { type: 'boolean' } });
  let connection;
  try {
    connection = await connectControl();
  } catch (err) {
    if (err instanceof HostUnreachableError) {
      process.stderr.write(
        `droidbus ui: ${err.message}${err.kind === 'absent' ? '; start one with droidbus host' : ''}\n`,
      );
      return err.kind === 'absent' ? 1 : 2;
    }
    throw err;
  }
  let link;
  try {
    link = await connection.client.request('host.page_link', {});
  } catch (err) {
    if (err instanceof BusError) {
      process.stderr.write(`droidbus ui: ${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    await connection.client.close();
  }
  process.stdout.write(`${link.url}\n`);
  if (!values['no-open'] && !(await openInBrowser(link.url))) {
    process.stderr.write('droidbus ui: no browser to open here; open the link above (it works once).\n');
  }
  return 0;
}

export const command: CliCommand = {
  name: 'ui',
  summary: "Print (and open) a one-time login link to the droidbus host's page.",
  usage: USAGE,
  run,
};
