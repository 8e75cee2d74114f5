import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  bundledProfileDir,
  bundledProfiles,
  loadProfile,
  type DeviceProfile,
} from '../profile/profile-format.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';
import type { AuthMode, Farm, FarmOptions } from '../sim/index.js';
import { AVD_NAME_RE } from '../util/app-args.js';

const USAGE = `Usage: droidbus sim [options]

Starts simulated Android devices that the real adb server lists and talks to, until Ctrl-C.

Options:
  --devices N               TCP devices, connected like 'adb connect' (default 1, or 0 with --emulators)
  --emulators M             emulators: emulator-N with a console on port N and adb on N+1 (default 0)
  --adb-port P              the adb server's port (default: ANDROID_ADB_SERVER_PORT, else 5037);
                            a server is started with the SDK's adb if none answers
  --json                    one JSON line per device, then {"ready":true}
  --command-log FILE        append one JSON line per device command to FILE
  --dump-latency MS         how long 'uiautomator dump' takes (default 700)
  --helper-latency MS       how long the UiAutomator2 helper takes to answer (default 100)
  --logcat-rate N           background logcat lines per second per device (default 5)
  --auth MODE               none (default) | any (challenge, accept any key) | unauthorized
  --emulator-base-port P    first console port tried for emulators (default 5554)
  --sample-project DIR      write the sample Android project to DIR and exit
  --test-sdk DIR            write an Android SDK folder to DIR whose emulator/emulator starts one
                            simulated emulator per launch (-list-avds, -avd NAME), and exit
  --avds A,B                the test SDK's AVD names (default Pixel_8_API_34); with
                            --emulator-base-port, the first console port its emulators try
  --profile P[,P...]        one device per profile, answering as the recorded device did (a folder
                            from 'droidbus device record', or a bundled profile's name:
                            ${bundledProfiles().join(', ')})
  --boot-ms MS              how long the test SDK's emulators take to boot (default 0)`;

/** Parses a whole number within bounds, or throws a UsageError naming the flag. */
function intFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not '${value}'`);
  }
  return Number(value);
}

const AUTH_MODES: readonly AuthMode[] = ['none', 'any', 'unauthorized'];

/** Loads `--profile A,B`: each a profile folder, or the name of a bundled one (profiles/). */
function loadProfiles(list: string): DeviceProfile[] {
  return list
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => {
      const dir = existsSync(p) || p.includes('/') || p.includes(path.sep) ? p : bundledProfileDir(p);
      try {
        return loadProfile(dir);
      } catch (err) {
        throw new UsageError(
          `--profile ${p}: ${err instanceof Error ? err.message : String(err)} (bundled profiles: ${bundledProfiles().join(', ')})`,
        );
      }
    });
}

/** Reads the command line into farm options (or the sample-project request). */
export function parseSimArgs(argv: string[]): {
  sampleProject?: string;
  testSdk?: { dir: string; avds: string[]; basePort?: number; bootMs?: number };
  json: boolean;
  farm: FarmOptions;
} {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        devices: { type: 'string' },
        emulators: { type: 'string' },
        'adb-port': { type: 'string' },
        json: { type: 'boolean', default: false },
        'command-log': { type: 'string' },
        'dump-latency': { type: 'string' },
        'helper-latency': { type: 'string' },
        'logcat-rate': { type: 'string' },
        auth: { type: 'string' },
        'emulator-base-port': { type: 'string' },
        'sample-project': { type: 'string' },
        'test-sdk': { type: 'string' },
        avds: { type: 'string' },
        'boot-ms': { type: 'string' },
        profile: { type: 'string' },
      },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const v = parsed.values;
  const emulators = intFlag('emulators', v.emulators, 0, 64) ?? 0;
  const profiles = v.profile === undefined ? [] : loadProfiles(v.profile);
  const devices =
    intFlag('devices', v.devices, 0, 512) ?? (v.emulators !== undefined || profiles.length > 0 ? 0 : 1);
  const auth = v.auth ?? 'none';
  if (!(AUTH_MODES as readonly string[]).includes(auth)) {
    throw new UsageError(`--auth must be one of ${AUTH_MODES.join(', ')}, not '${auth}'`);
  }
  if ((v.avds !== undefined || v['boot-ms'] !== undefined) && v['test-sdk'] === undefined) {
    throw new UsageError('--avds and --boot-ms go with --test-sdk DIR');
  }
  const bootMs = intFlag('boot-ms', v['boot-ms'], 0, 600_000);
  const avds = (v.avds ?? 'Pixel_8_API_34').split(',').map((a) => a.trim());
  if (v['test-sdk'] !== undefined && avds.some((a) => !AVD_NAME_RE.test(a))) {
    throw new UsageError(
      `--avds takes AVD names (letters, digits, . _ -) separated by commas, not '${v.avds ?? ''}'`,
    );
  }
  if (
    v['sample-project'] === undefined &&
    v['test-sdk'] === undefined &&
    devices + emulators + profiles.length === 0
  ) {
    throw new UsageError('nothing to start: give --devices, --emulators or --profile');
  }
  const adbPort = intFlag('adb-port', v['adb-port'], 1, 65535);
  const dumpLatencyMs = intFlag('dump-latency', v['dump-latency'], 0, 600_000);
  const helperLatencyMs = intFlag('helper-latency', v['helper-latency'], 0, 600_000);
  const logcatRate = intFlag('logcat-rate', v['logcat-rate'], 0, 1_000_000);
  const emulatorBasePort = intFlag('emulator-base-port', v['emulator-base-port'], 1024, 65532);
  const farm: FarmOptions = {
    devices,
    emulators,
    auth: auth as AuthMode,
    ...(adbPort !== undefined ? { adbPort } : {}),
    ...(dumpLatencyMs !== undefined ? { dumpLatencyMs } : {}),
    ...(helperLatencyMs !== undefined ? { helperLatencyMs } : {}),
    ...(logcatRate !== undefined ? { logcatRate } : {}),
    ...(emulatorBasePort !== undefined ? { emulatorBasePort } : {}),
    ...(v['command-log'] !== undefined ? { commandLog: v['command-log'] } : {}),
    ...(profiles.length > 0 ? { profiles } : {}),
  };
  return {
    json: v.json,
    farm,
    ...(v['sample-project'] !== undefined ? { sampleProject: v['sample-project'] } : {}),
    ...(v['test-sdk'] !== undefined
      ? {
          testSdk: {
            dir: v['test-sdk'],
            avds,
            ...(emulatorBasePort !== undefined ? { basePort: emulatorBasePort } : {}),
            ...(bootMs !== undefined ? { bootMs } : {}),
          },
        }
      : {}),
  };
}

/** Resolves on the first SIGINT or SIGTERM. */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      // A second signal while stopping means "now".
      const force = (): void => process.exit(130);
      process.once('SIGINT', force);
      process.once('SIGTERM', force);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

function printDevices(farm: Farm, json: boolean): void {
  if (json) {
    const lines = farm.devices.map((d) =>
      JSON.stringify({
        serial: d.serial,
        port: d.port,
        console_port: d.consolePort ?? null,
        model: d.model,
        sdk: d.sdk,
      }),
    );
    process.stdout.write(lines.join('\n') + (lines.length > 0 ? '\n' : '') + '{"ready":true}\n');
    return;
  }
  const width = Math.max(...farm.devices.map((d) => d.serial.length));
  const rows = farm.devices.map((d) => {
    const where = d.consolePort !== undefined ? `console ${d.consolePort}, adb ${d.port}` : `port ${d.port}`;
    return `  ${d.serial.padEnd(width)}  ${d.model} (SDK ${d.sdk}), ${where}`;
  });
  process.stdout.write(
    `${farm.devices.length} simulated device(s) online at the adb server on port ${farm.adbPort}:\n` +
      rows.join('\n') +
      '\nPress Ctrl-C to stop them.\n',
  );
}

export const command: CliCommand = {
  name: 'sim',
  summary: 'run simulated Android devices that the real adb server sees',
  usage: USAGE,
  async run(argv) {
    const args = parseSimArgs(argv);
    if (args.testSdk !== undefined) {
      const { writeTestSdk } = await import('../sim/index.js');
      const { dir, avds, basePort, bootMs } = args.testSdk;
      let script: string;
      try {
        script = await writeTestSdk(dir, {
          avds,
          ...(basePort !== undefined ? { basePort } : {}),
          ...(bootMs !== undefined ? { bootMs } : {}),
        });
      } catch (err) {
        process.stderr.write(`droidbus sim: ${err instanceof Error ? err.message : String(err)}\n`);
        return 1;
      }
      process.stdout.write(
        `wrote a test Android SDK to ${dir} (AVDs: ${avds.join(', ')}); its emulator is ${script}\nSet ANDROID_HOME=${dir} for droidbus to use it.\n`,
      );
      if (args.sampleProject === undefined) {
        return 0;
      }
    }
    if (args.sampleProject !== undefined) {
      const { writeSampleProject } = await import('../sim/index.js');
      await writeSampleProject(args.sampleProject);
      process.stdout.write(`wrote the sample Android project to ${args.sampleProject}\n`);
      return 0;
    }
    const signal = untilSignal();
    const { startFarm } = await import('../sim/index.js');
    let farm: Farm;
    try {
      farm = await startFarm({
        ...args.farm,
        notify: (message) => process.stderr.write(`droidbus sim: ${message}\n`),
      });
    } catch (err) {
      process.stderr.write(`droidbus sim: ${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    }
    printDevices(farm, args.json);
    await signal;
    await farm.stop();
    return 0;
  },
};
