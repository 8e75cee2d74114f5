import type { CliCommand } from './command.js';
import { UsageError } from './command.js';
import {
  DeviceStorageError,
  allowDeviceDir,
  listDeviceStorage,
  revokeDeviceDir,
} from '../store/device-storage.js';
import { exchangeDir } from '../store/exchange.js';

const USAGE = `Usage: droidbus storage allow SERIAL DEVICE_DIR
       droidbus storage revoke SERIAL [DEVICE_DIR]
       droidbus storage --list

Decides which folders on a device the file tools (list_device_files, pull_device_file,
push_device_file) may use. Nothing is reachable until you allow it here; no MCP tool can allow a
folder. Paths are checked on the device when a tool runs: a path is resolved with realpath and must
land inside an allowed folder (symlinks that lead out, '..' and special files are refused).

  allow SERIAL DEVICE_DIR    allow DEVICE_DIR (absolute, e.g. /sdcard/Download) on the device SERIAL
                             (LABEL/SERIAL with several adb servers, as list_devices shows it)
  revoke SERIAL [DEVICE_DIR] revoke one folder, or every folder of SERIAL
  --list, list               show the allowed folders of every device

Host files are exchanged only through the exchange folder (<data dir>/exchange/).`;

function list(): number {
  const all = listDeviceStorage();
  const serials = Object.keys(all).sort();
  process.stdout.write(`Exchange folder: ${exchangeDir()}\n`);
  if (serials.length === 0) {
    process.stdout.write(
      'No device folder is allowed. Allow one with: droidbus storage allow SERIAL /sdcard/Download\n',
    );
    return 0;
  }
  for (const serial of serials) {
    process.stdout.write(`${serial}\n`);
    for (const dir of all[serial] ?? []) {
      process.stdout.write(`  ${dir}\n`);
    }
  }
  return 0;
}

async function run(argv: string[]): Promise<number> {
  const [sub, ...args] = argv;
  try {
    switch (sub) {
      case '--list':
      case 'list':
        if (args.length > 0) {
          throw new UsageError(`${sub} takes no arguments`);
        }
        return list();
      case 'allow': {
        const [serial, dir, ...extra] = args;
        if (serial === undefined || dir === undefined || extra.length > 0) {
          throw new UsageError('allow needs SERIAL and DEVICE_DIR');
        }
        const added = await allowDeviceDir(serial, dir);
        process.stdout.write(
          added
            ? `Allowed ${dir} on ${serial} for the file tools.\n`
            : `${dir} on ${serial} was already allowed.\n`,
        );
        return 0;
      }
      case 'revoke': {
        const [serial, dir, ...extra] = args;
        if (serial === undefined || extra.length > 0) {
          throw new UsageError('revoke needs SERIAL and, optionally, DEVICE_DIR');
        }
        const removed = await revokeDeviceDir(serial, dir);
        if (removed.length === 0) {
          process.stdout.write(`Nothing to revoke: ${dir ?? 'no folder'} is allowed on ${serial}.\n`);
          return 1;
        }
        process.stdout.write(`Revoked on ${serial}: ${removed.join(', ')}\n`);
        return 0;
      }
      case undefined:
        throw new UsageError('a subcommand is needed: allow, revoke or --list');
      default:
        throw new UsageError(`unknown subcommand '${sub}'`);
    }
  } catch (err) {
    if (err instanceof DeviceStorageError) {
      process.stderr.write(`droidbus storage: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

export const command: CliCommand = {
  name: 'storage',
  summary: 'Allow or revoke the device folders the file tools may use (MCP cannot).',
  usage: USAGE,
  run,
};
