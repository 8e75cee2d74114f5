import { parseArgs } from 'node:util';
import { AdbClient } from '../adb/client.js';
import { Device } from '../device/device.js';
import {
  helperState,
  HELPER_DEVICE_PORT,
  HELPER_VERSION,
  installHelper,
  removeHelper,
  type HelperState,
} from '../device/uiautomator2-helper.js';
import { serialSchema } from '../bus/messages/devices.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';

const USAGE = `Usage: droidbus helper install|status|remove [--serial S] [--json]

The on-device helper droidbus can read the screen with: Appium's UiAutomator2 server
(Apache-2.0, version ${HELPER_VERSION}, from the npm package droidbus depends on; nothing is
downloaded). It is two APKs — io.appium.uiautomator2.server and its instrumentation
io.appium.uiautomator2.server.test — that run as an instrumentation listening on device port
${HELPER_DEVICE_PORT}. Installing an instrumentation on your device is your decision, so only this
command does it; no agent tool can.

  install   install (or update) both APKs on the device
  status    whether they are installed, their version, and whether the server runs
  remove    stop the server and uninstall both APKs

Options:
  --serial S   the device (default: every device adb lists online)
  --json       print one JSON object per device on stdout

Exit status: 0 when done on every device, 1 when a device failed, 2 on bad usage.`;

function describe(s: HelperState): string {
  if (!s.installed) {
    const partial = s.packages.server || s.packages.test;
    return `${s.serial}: not installed${partial ? ' (one of its two APKs only: run droidbus helper install)' : ''}`;
  }
  const newer =
    s.current && s.version !== HELPER_VERSION
      ? ` (newer than the ${HELPER_VERSION} droidbus ships; used as it is)`
      : '';
  return `${s.serial}: installed, version ${s.version ?? 'unknown'}${s.current ? newer : ` (this droidbus ships ${HELPER_VERSION}: run droidbus helper install)`}, ${s.running ? 'running' : 'not running'}`;
}

async function serials(client: AdbClient, wanted: string | undefined): Promise<string[]> {
  const devices = await client.devices();
  if (wanted !== undefined) {
    const d = devices.find((x) => x.serial === wanted);
    if (d === undefined || d.state !== 'device') {
      throw new UsageError(`${wanted} is ${d === undefined ? 'not listed by adb' : d.state}`);
    }
    return [wanted];
  }
  const online = devices.filter((d) => d.state === 'device').map((d) => d.serial);
  if (online.length === 0) {
    throw new UsageError('adb lists no online device');
  }
  return online;
}

async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'install' && sub !== 'status' && sub !== 'remove') {
    throw new UsageError(
      sub === undefined ? 'give install, status or remove' : `unknown subcommand '${sub}'`,
    );
  }
  let values: { serial?: string; json?: boolean };
  try {
    ({ values } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: { serial: { type: 'string' }, json: { type: 'boolean' } },
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (values.serial !== undefined && !serialSchema.safeParse(values.serial).success) {
    throw new UsageError(`not a device serial: '${values.serial}'`);
  }
  const client = new AdbClient();
  let failed = 0;
  for (const serial of await serials(client, values.serial)) {
    const device = new Device(serial, client);
    try {
      if (sub === 'install') {
        process.stderr.write(`installing the helper on ${serial}…\n`);
        for (const answer of await installHelper(device)) {
          if (answer.startsWith('kept')) {
            process.stderr.write(`${serial}: ${answer}\n`);
          }
        }
      } else if (sub === 'remove') {
        await removeHelper(device);
      }
      const state = await helperState(device);
      process.stdout.write(values.json === true ? JSON.stringify(state) + '\n' : describe(state) + '\n');
    } catch (err) {
      failed++;
      process.stderr.write(
        `droidbus helper ${sub}: ${serial}: ${err instanceof Error ? err.message : String(err)}\n`,
      );
    }
  }
  return failed === 0 ? 0 : 1;
}

export const command: CliCommand = {
  name: 'helper',
  summary:
    "Install, check or remove the on-device UI helper (Appium's UiAutomator2 server) — a person's decision.",
  usage: USAGE,
  run,
};
