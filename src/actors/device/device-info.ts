/** get_device_info: the small device dumps it reads in one round trip (parsed by device-facts.ts). */
import { joinReads, READS, readCommand } from '../../device/reads.js';
import { configuredAdbServers } from '../../adb/servers.js';
import type { ResponseOf } from '../../bus/registry.js';
import type { HandlerContext } from '../actor.js';
import type { Device } from '../../device/device.js';
import { droidbusChanges } from './extras/display-config.js';
import {
  parseBatteryLevel,
  parseGetprop,
  parseResumedActivity,
  parseWm,
} from '../../device/parsers/device-facts.js';

/** get_device_info's facts, read in one round trip. */
export async function deviceInfo(device: Device, ctx: HandlerContext): Promise<ResponseOf<'device.info'>> {
  const features = await device.features();
  // One round trip for every fact: the sections are split on a marker no output contains.
  const marker = '@@droidbus-section@@';
  const out = await device.shell(
    joinReads(
      marker,
      readCommand(READS.props),
      readCommand(READS.wmSize),
      readCommand(READS.wmDensity),
      readCommand(READS.battery),
      readCommand(READS.activities),
    ),
    { signal: ctx.signal, timeoutMs: 30_000, maxBytes: 8 * 1024 * 1024 },
  );
  const [props = '', size = '', density = '', battery = '', activities = ''] = out.stdout.split(
    `${marker}\n`,
  );
  const p = parseGetprop(props);
  const get = (key: string): string | null => p.get(key) || null;
  const sdk = Number(get('ro.build.version.sdk'));
  const servers = configuredAdbServers();
  const adbSerial = servers.route(device.serial)?.serial ?? device.serial;
  return {
    serial: device.serial,
    adb_server: servers.multi ? (servers.route(device.serial)?.server.label ?? null) : null,
    model: get('ro.product.model'),
    manufacturer: get('ro.product.manufacturer'),
    brand: get('ro.product.brand'),
    device: get('ro.product.device'),
    android_version: get('ro.build.version.release'),
    sdk: Number.isInteger(sdk) && sdk > 0 ? sdk : null,
    abi: get('ro.product.cpu.abi'),
    fingerprint: get('ro.build.fingerprint'),
    is_emulator:
      get('ro.kernel.qemu') === '1' || get('ro.boot.qemu') === '1' || /^emulator-\d+$/.test(adbSerial),
    screen: parseWm(size, density),
    battery_level: parseBatteryLevel(battery),
    foreground: parseResumedActivity(activities),
    shell_v2: features.includes('shell_v2'),
    features,
    droidbus_changes: droidbusChanges(device.serial),
  };
}
