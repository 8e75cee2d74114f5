/**
 * The test SDK's `emulator` (written by `droidbus sim --test-sdk DIR --avds …`): a process that
 * answers `-list-avds` with the AVDs of its folder's avds.json, and for `-avd NAME` (or `@NAME`)
 * starts ONE simulated emulator with that AVD name — console and adb on the first free port pair
 * at or above the base port (or `-port N`), announced to the adb server of ANDROID_ADB_SERVER_PORT —
 * and stays in the foreground until its console is told `kill` or it gets SIGTERM/SIGINT, as the
 * real emulator does. So the real launch path (spawn, wait for adb, match AVD names) runs in tests.
 *
 * This is a CLI process of its own, so it writes to stdout and stderr like the emulator.
 *
 * Evidence: the emulator's command line (https://developer.android.com/studio/run/emulator-
 * commandline: `-list-avds`, `-avd NAME` or `@NAME`, `-port N`) and its port pairs (console 5554+2N,
 * adb 5555+2N).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Farm } from './farm.js';

/** The config file `--test-sdk` writes next to the script. */
export interface TestSdkConfig {
  avds: string[];
  /** First console port tried. */
  base_port: number;
  /** How long an emulator takes to boot before adb sees it (default 0). */
  boot_ms?: number;
}

/** The parsed command line of the stand-in. */
export type StandInCommand =
  | { kind: 'list' }
  | { kind: 'version' }
  | { kind: 'run'; avd: string; port: number | null }
  | { kind: 'usage'; message: string };

/** Emulator options that take a value (skipped with it). */
const VALUE_OPTIONS = new Set([
  '-netdelay',
  '-netspeed',
  '-gpu',
  '-memory',
  '-partition-size',
  '-camera-back',
  '-camera-front',
  '-dns-server',
  '-http-proxy',
  '-skin',
  '-sysdir',
  '-datadir',
  '-kernel',
  '-ramdisk',
  '-data',
  '-cores',
  '-timezone',
  '-grpc',
  '-feature',
  '-logcat',
]);

/** Reads the emulator's arguments the way the stand-in understands them. */
export function parseStandInArgs(argv: readonly string[]): StandInCommand {
  let avd: string | null = null;
  let port: number | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-list-avds') {
      return { kind: 'list' };
    }
    if (a === '-version') {
      return { kind: 'version' };
    }
    if (a === '-avd') {
      avd = argv[++i] ?? null;
      if (avd === null) {
        return { kind: 'usage', message: 'option -avd needs a value' };
      }
    } else if (a.startsWith('@') && a.length > 1) {
      avd = a.slice(1);
    } else if (a === '-port') {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 1024 || value > 65532 || value % 2 !== 0) {
        return { kind: 'usage', message: 'option -port needs an even port number from 1024 to 65532' };
      }
      port = value;
    } else if (a === '-qemu') {
      break;
    } else if (VALUE_OPTIONS.has(a)) {
      i++;
    }
  }
  if (avd === null) {
    return { kind: 'usage', message: 'No AVD specified. Use -avd NAME or @NAME (-list-avds lists them).' };
  }
  return { kind: 'run', avd, port };
}

function readConfig(): TestSdkConfig {
  const file = process.env['DROIDBUS_SIM_AVDS_FILE'];
  if (file === undefined || file === '') {
    throw new Error('DROIDBUS_SIM_AVDS_FILE is not set: run this through the test SDK’s emulator script');
  }
  return JSON.parse(readFileSync(file, 'utf8')) as TestSdkConfig;
}

/** Runs the stand-in; resolves with the exit code once the emulator is gone. */
export async function runEmulatorStandIn(argv: readonly string[]): Promise<number> {
  const command = parseStandInArgs(argv);
  const config = readConfig();
  switch (command.kind) {
    case 'list':
      process.stdout.write(config.avds.map((a) => `${a}\n`).join(''));
      return 0;
    case 'version':
      process.stdout.write('Android emulator version 35.1.0.0 (droidbus stand-in)\n');
      return 0;
    case 'usage':
      process.stderr.write(`ERROR   | ${command.message}\n`);
      return 1;
    case 'run':
      break;
    default: {
      const never: never = command;
      return never;
    }
  }
  if (!config.avds.includes(command.avd)) {
    process.stderr.write(`ERROR   | Unknown AVD name [${command.avd}], use -list-avds to see valid list.\n`);
    return 1;
  }
  const { startFarm } = await import('./farm.js');
  let farm: Farm | undefined;
  let stopped = false;
  let finished: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    finished = resolve;
  });
  const stop = (code: number): void => {
    stopped = true;
    void (farm?.stop() ?? Promise.resolve()).finally(() => finished(code));
  };
  process.once('SIGTERM', () => stop(0));
  process.once('SIGINT', () => stop(0));
  process.stdout.write(
    `INFO    | droidbus emulator stand-in (pid ${process.pid}) booting AVD ${command.avd}\n`,
  );
  const bootMs = config.boot_ms ?? 0;
  if (bootMs > 0) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, bootMs))), done]);
    clearTimeout(timer);
    if (stopped) {
      return done;
    }
  }
  try {
    farm = await startFarm({
      devices: 0,
      emulators: 1,
      avdNames: [command.avd],
      emulatorBasePort: command.port ?? config.base_port,
      // The emulator announces itself to a running adb server; it never starts one.
      startServer: false,
      onEmulatorKilled: () => stop(0),
      notify: (message) => process.stderr.write(`INFO    | ${message}\n`),
    });
  } catch (err) {
    process.stderr.write(`ERROR   | ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  if (stopped) {
    // Told to stop while it was starting: the stop found no farm yet, so end this one now.
    await farm.stop();
    return done;
  }
  const emulator = farm.devices[0]!;
  process.stdout.write(
    `INFO    | droidbus emulator stand-in: AVD ${command.avd} is ${emulator.serial} (console ${emulator.consolePort ?? '?'}, adb ${emulator.port})\n`,
  );
  return done;
}

function isMainModule(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) {
    return false;
  }
  try {
    return pathToFileURL(realpathSync(entry)).href === import.meta.url;
  } catch {
    return false;
  }
}

if (isMainModule()) {
  process.stdout.on('error', () => undefined);
  runEmulatorStandIn(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(
        `ERROR   | emulator stand-in: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
}
