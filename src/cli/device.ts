import { parseArgs } from 'node:util';
import { AdbClient } from '../adb/client.js';
import { Device } from '../device/device.js';
import { serialSchema } from '../bus/messages/devices.js';
import { packageNameSchema } from '../bus/messages/logcat.js';
import { recordProfile } from '../profile/profile-record.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';

const USAGE = `Usage: droidbus device record [--serial S] [--package P]... -o PROFILE [--keep-notifications] [--keep-screenshot] [--json]

Records a device into a profile: the raw answer (bytes, stderr, exit code) of every read-only
command droidbus's tools run on a device — getprop, wm, dumpsys (window, activity, package,
meminfo, exit-info, notification, location, battery), pm, settings, ps, uiautomator dump,
logcat -g and logcat -d -b all (and screencap with --keep-screenshot). Attach the profile to a bug report: with it anyone can
run 'droidbus sim --profile PROFILE' and get a simulated device that answers as yours did.

Personal data is replaced before anything is written, and each replacement is listed: serial
numbers and device ids, the device's name, MAC and IP addresses, e-mail addresses and account
names, notification texts, and what apps log that names a person or signs one in (Wi-Fi network
names, phone numbers, android_id, tokens, cookies). The screenshot is left out unless you ask for it:
it is pixels, which no pattern can redact. Read the list; redaction works on patterns and may miss
something.

Options:
  --serial S             the device (default: the only device adb lists online)
  --package P            also record the per-package reads (dumpsys package, meminfo, exit-info,
                         pm path, pidof, the APK's sha256) for P; repeat for more. Default: the app
                         in front.
  -o, --out PROFILE      the folder to write (must not exist)
  --keep-notifications   keep notification titles and texts
  --keep-screenshot      also record screencap -p (the screen as it shows, nothing redacted in it)
  --json                 print the manifest as JSON on stdout instead of a summary

Exit status: 0 when recorded, 1 when the device could not be read, 2 on bad usage.`;

async function pickSerial(client: AdbClient, wanted: string | undefined): Promise<string> {
  const devices = await client.devices();
  const online = devices.filter((d) => d.state === 'device');
  if (wanted !== undefined) {
    const d = devices.find((x) => x.serial === wanted);
    if (d === undefined) {
      throw new Error(
        `adb lists no device ${wanted} (it lists: ${devices.map((x) => x.serial).join(', ') || 'none'})`,
      );
    }
    if (d.state !== 'device') {
      throw new Error(`${wanted} is ${d.state}, not online`);
    }
    return wanted;
  }
  if (online.length !== 1) {
    throw new UsageError(
      online.length === 0
        ? 'adb lists no online device'
        : `adb lists ${online.length} online devices (${online.map((d) => d.serial).join(', ')}): choose one with --serial`,
    );
  }
  return online[0]!.serial;
}

async function record(argv: string[]): Promise<number> {
  let values: {
    serial?: string;
    package?: string[];
    out?: string;
    'keep-notifications'?: boolean;
    'keep-screenshot'?: boolean;
    json?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        serial: { type: 'string' },
        package: { type: 'string', multiple: true },
        out: { type: 'string', short: 'o' },
        'keep-notifications': { type: 'boolean' },
        'keep-screenshot': { type: 'boolean' },
        json: { type: 'boolean' },
      },
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (values.out === undefined || values.out === '') {
    throw new UsageError('-o PROFILE is required');
  }
  if (values.serial !== undefined && !serialSchema.safeParse(values.serial).success) {
    throw new UsageError(`not a device serial: '${values.serial}'`);
  }
  for (const p of values.package ?? []) {
    if (!packageNameSchema.safeParse(p).success) {
      throw new UsageError(`not a package name: '${p}'`);
    }
  }
  const client = new AdbClient();
  try {
    const serial = await pickSerial(client, values.serial);
    process.stderr.write(`recording ${serial} into ${values.out}\n`);
    const manifest = await recordProfile(new Device(serial, client), {
      serial,
      packages: values.package ?? [],
      out: values.out,
      keepNotifications: values['keep-notifications'] === true,
      keepScreenshot: values['keep-screenshot'] === true,
      progress: (line) => process.stderr.write(`  ${line}\n`),
    });
    if (values.json === true) {
      process.stdout.write(JSON.stringify(manifest) + '\n');
      return 0;
    }
    const bytes = manifest.commands.reduce((n, c) => n + c.stdout_bytes, 0);
    process.stdout.write(
      `Recorded ${manifest.commands.length} commands (${bytes} bytes) of ${manifest.description} into ${values.out}\n`,
    );
    if (manifest.packages.length > 0) {
      process.stdout.write(`Packages: ${manifest.packages.join(', ')}\n`);
    }
    if (values['keep-screenshot'] !== true) {
      process.stdout.write(
        'Left out: screencap -p (a screenshot is pixels, which no pattern can redact; --keep-screenshot records it).\n',
      );
    } else {
      const shot = manifest.commands.find((c) => c.argv.join(' ') === 'screencap -p');
      if (shot !== undefined) {
        process.stdout.write(
          `Not redacted: ${shot.stdout} (screencap -p: the screen as it showed, with whatever text was on it; look before you share it).\n`,
        );
      }
    }
    if (manifest.redactions.length === 0) {
      process.stdout.write('Redacted: nothing matched the personal-data patterns.\n');
    } else {
      process.stdout.write('Redacted:\n');
      for (const r of manifest.redactions) {
        process.stdout.write(`  ${r.command}: ${r.count} ${r.what}${r.count > 1 ? 's' : ''} (${r.why})\n`);
      }
    }
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      throw err;
    }
    process.stderr.write(`droidbus device record: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

export const command: CliCommand = {
  name: 'device',
  summary: 'Record a device into a profile (droidbus sim --profile replays it): for bug reports.',
  usage: USAGE,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub !== 'record') {
      throw new UsageError(sub === undefined ? 'give a subcommand: record' : `unknown subcommand '${sub}'`);
    }
    return record(rest);
  },
};
