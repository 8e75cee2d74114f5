/**
 * `set_network_state` on the device: Wi-Fi (`svc wifi`), mobile data (`svc data`) and airplane mode
 * (`cmd connectivity airplane-mode`, Android 11+; before that the `airplane_mode_on` setting plus the
 * AIRPLANE_MODE broadcast, which Android 7+ refuses from the shell — the setting is then put back).
 * The previous state comes from the global settings, so a change can be reverted. What would cut
 * the connection of a wireless adb device is refused before anything runs.
 */
import { joinReads, READS, readCommand } from '../../../device/reads.js';
import { shArgv } from '../../../adb/shell-command.js';
import { BusError } from '../../../bus/errors.js';
import type { NetworkState } from '../../../bus/messages/admin.js';
import type { ResponseOf } from '../../../bus/registry.js';
import { wirelessNetworkRefusal } from '../../../util/app-args.js';
import { pmFailure } from '../../../device/parsers/am-start.js';
import { outputOf, type DeviceShell } from '../../../device/device-shell.js';

export interface NetworkChange {
  wifi?: boolean | undefined;
  mobile_data?: boolean | undefined;
  airplane_mode?: boolean | undefined;
}

const MARK = '@@droidbus@@';

/** `wifi_on` is 0 off, 1 on, 2 on with airplane mode, 3 off because of airplane mode. */
function wifiOn(value: string | undefined): boolean | null {
  const n = Number(value);
  return value === undefined || value === 'null' || value === '' || !Number.isInteger(n)
    ? null
    : n === 1 || n === 2;
}

function flag(value: string | undefined): boolean | null {
  const n = Number(value);
  return value === undefined || value === 'null' || value === '' || !Number.isInteger(n) ? null : n !== 0;
}

/** Reads the three global settings in one round trip. */
export async function readNetworkState(
  shell: DeviceShell,
): Promise<NetworkState & { raw_airplane: string | null }> {
  const r = await shell(
    joinReads(
      MARK,
      readCommand(READS.wifiOn),
      readCommand(READS.mobileData),
      readCommand(READS.airplaneMode),
    ),
  );
  const [wifi, data, airplane] = r.stdout.split(MARK).map((s) => s.trim());
  return {
    wifi: wifiOn(wifi),
    mobile_data: flag(data),
    airplane_mode: flag(airplane),
    raw_airplane: airplane !== undefined && /^\d+$/.test(airplane) ? airplane : null,
  };
}

/**
 * Applies the change (airplane mode first, then Wi-Fi, then mobile data) and reports the state
 * before and after, with every command run as argv.
 */
export async function setNetworkState(
  serial: string,
  shell: DeviceShell,
  change: NetworkChange,
): Promise<ResponseOf<'device.network'>> {
  if (change.wifi === undefined && change.mobile_data === undefined && change.airplane_mode === undefined) {
    throw new BusError('INVALID', 'nothing to change: pass wifi, mobile_data or airplane_mode');
  }
  const refusal = wirelessNetworkRefusal(serial, change);
  if (refusal !== null) {
    throw new BusError('INVALID', refusal);
  }
  const commands: string[][] = [];
  const run = async (argv: string[]): Promise<{ output: string; failure: string | null }> => {
    commands.push(argv);
    const r = await shell(shArgv(argv));
    const output = outputOf(r);
    return { output, failure: pmFailure(output, r.exitCode) ?? unknownCommand(output) };
  };
  const previous = await readNetworkState(shell);
  let airplaneMethod: ResponseOf<'device.network'>['airplane_method'] = null;
  if (change.airplane_mode !== undefined) {
    const on = change.airplane_mode;
    const viaCmd = await run(['cmd', 'connectivity', 'airplane-mode', on ? 'enable' : 'disable']);
    if (viaCmd.failure === null) {
      airplaneMethod = 'cmd_connectivity';
    } else {
      // Before Android 11 there is no shell command for it: the setting, then the broadcast that applies it.
      const put = await run(['settings', 'put', 'global', 'airplane_mode_on', on ? '1' : '0']);
      if (put.failure !== null) {
        throw new BusError('FAILED', `could not change airplane mode on ${serial}: ${put.failure}`);
      }
      const broadcast = await run([
        'am',
        'broadcast',
        '-a',
        'android.intent.action.AIRPLANE_MODE',
        '--ez',
        'state',
        on ? 'true' : 'false',
      ]);
      if (broadcast.failure !== null || /Permission Denial|Security exception/i.test(broadcast.output)) {
        await run(['settings', 'put', 'global', 'airplane_mode_on', previous.raw_airplane ?? '0']);
        throw new BusError(
          'FAILED',
          `${serial} has no \`cmd connectivity airplane-mode\` (${viaCmd.failure}) and refused the AIRPLANE_MODE broadcast (${(broadcast.failure ?? broadcast.output).slice(0, 200)}); the airplane_mode_on setting was put back. Change airplane mode on the device itself.`,
        );
      }
      airplaneMethod = 'settings_broadcast';
    }
  }
  if (change.wifi !== undefined) {
    const r = await run(['svc', 'wifi', change.wifi ? 'enable' : 'disable']);
    if (r.failure !== null) {
      throw new BusError('FAILED', `svc wifi failed on ${serial}: ${r.failure}`);
    }
  }
  if (change.mobile_data !== undefined) {
    const r = await run(['svc', 'data', change.mobile_data ? 'enable' : 'disable']);
    if (r.failure !== null) {
      throw new BusError('FAILED', `svc data failed on ${serial}: ${r.failure}`);
    }
  }
  const after = await readNetworkState(shell);
  return {
    previous: {
      wifi: previous.wifi,
      mobile_data: previous.mobile_data,
      airplane_mode: previous.airplane_mode,
    },
    current: { wifi: after.wifi, mobile_data: after.mobile_data, airplane_mode: after.airplane_mode },
    commands,
    airplane_method: airplaneMethod,
  };
}

/** Binder shell commands answer an unknown verb with `Unknown command: …` (and exit status 255). */
function unknownCommand(output: string): string | null {
  const line = output.split(/\r?\n/).find((l) => /^(Unknown command|Unsupported argument)/i.test(l.trim()));
  return line?.trim() ?? null;
}
