/**
 * `droidbus sim --test-sdk DIR --avds A,B`: writes an Android SDK folder whose `emulator/emulator`
 * (POSIX sh, plus `emulator.bat` for Windows) runs this droidbus installation's emulator stand-in
 * with node, listing those AVDs and starting a simulated emulator for each launch. Point ANDROID_HOME
 * at DIR and droidbus finds it like a real SDK.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { batStandIn, posixStandIn } from './stand-in-script.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AVD_NAME_RE } from '../util/app-args.js';
import type { TestSdkConfig } from './emulator-stand-in.js';

export interface TestSdkOptions {
  avds: readonly string[];
  /** First console port the stand-in tries (default 5554, as the emulator). */
  basePort?: number;
  /** How long its emulators take to boot before adb sees them (default 0). */
  bootMs?: number;
  /** The node executable the scripts run (default: this process's). */
  node?: string;
  /** Arguments before the emulator's own (default: the built stand-in module). */
  standInArgs?: string[];
}

/** The built emulator stand-in of this installation (under dist/ also when running from src/). */
export function builtEmulatorStandInPath(): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) {
    return join(dirname(here), 'emulator-stand-in.js');
  }
  const srcIndex = here.lastIndexOf(join('src', 'sim'));
  return join(here.slice(0, srcIndex), 'dist', 'sim', 'emulator-stand-in.js');
}

/** The POSIX `emulator` script. */
export function emulatorScript(node: string, standInArgs: readonly string[]): string {
  return posixStandIn({
    comment: EMULATOR_COMMENT,
    env: { name: 'DROIDBUS_SIM_AVDS_FILE', under: 'avds.json' },
    node,
    args: standInArgs,
  });
}

/** The Windows `emulator.bat`. */
export function emulatorBat(node: string, standInArgs: readonly string[]): string {
  return batStandIn({
    comment: EMULATOR_COMMENT,
    env: { name: 'DROIDBUS_SIM_AVDS_FILE', under: 'avds.json' },
    node,
    args: standInArgs,
  });
}

const EMULATOR_COMMENT = [
  'Android emulator stand-in written by `droidbus sim --test-sdk`: no emulator runs here.',
  "It execs droidbus's emulator stand-in, which starts a simulated emulator with the AVD's name.",
];

/** Writes the test SDK into `dir` (created if missing). Throws on an invalid AVD name. */
export async function writeTestSdk(dir: string, options: TestSdkOptions): Promise<string> {
  const bad = options.avds.find((a) => !AVD_NAME_RE.test(a));
  if (bad !== undefined) {
    throw new Error(`'${bad}' is not an AVD name (letters, digits, . _ - only)`);
  }
  if (options.avds.length === 0) {
    throw new Error('a test SDK needs at least one AVD');
  }
  const node = options.node ?? process.execPath;
  const standInArgs = options.standInArgs ?? [builtEmulatorStandInPath()];
  const folder = join(dir, 'emulator');
  await mkdir(folder, { recursive: true });
  const config: TestSdkConfig = {
    avds: [...options.avds],
    base_port: options.basePort ?? 5554,
    boot_ms: options.bootMs ?? 0,
  };
  await writeFile(join(folder, 'avds.json'), JSON.stringify(config, null, 2) + '\n');
  await writeFile(join(folder, 'emulator'), emulatorScript(node, standInArgs));
  await writeFile(join(folder, 'emulator.bat'), emulatorBat(node, standInArgs));
  await chmod(join(folder, 'emulator'), 0o755);
  return join(folder, 'emulator');
}
