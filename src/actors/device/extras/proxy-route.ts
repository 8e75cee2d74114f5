/**
 * A network capture's routing on the device (issue 72): `adb reverse tcp:PORT tcp:PORT` so that
 * 127.0.0.1:PORT on the phone reaches droidbus's proxy here, and the global proxy setting
 * (`settings put global http_proxy 127.0.0.1:PORT`) so that apps send their traffic there. The
 * setting the device had is read first and given back to the caller, which keeps it to restore.
 * Restoring puts the old value back only while the setting is still droidbus's — a value someone
 * set since is left alone. No value before means none after: `:0` first (ProxyTracker ignores an
 * empty setting, so only an invalid one clears the proxy in use), then the setting deleted.
 */
import { READS, readCommand } from '../../../device/reads.js';
import { sh } from '../../../adb/shell-command.js';
import { BusError } from '../../../bus/errors.js';
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import type { Device } from '../../../device/device.js';
import { deviceShell, outputOf, type DeviceShell } from '../../../device/device-shell.js';

/** The value droidbus puts for a capture on `port`. */
export function proxyValue(port: number): string {
  return `127.0.0.1:${port}`;
}

async function readProxy(shell: DeviceShell): Promise<string | null> {
  const value = (await shell(readCommand(READS.httpProxy))).stdout.trim();
  return value === '' || value === 'null' ? null : value;
}

async function put(shell: DeviceShell, serial: string, value: string): Promise<void> {
  const r = await shell(sh`settings put global http_proxy ${value}`);
  if (r.exitCode !== 0) {
    throw new BusError('FAILED', `settings put global http_proxy failed on ${serial}: ${outputOf(r).trim()}`);
  }
}

/** `device.proxy_route`: the reverse forward, then the proxy setting; the previous setting answered. */
export async function routeProxy(
  device: Device,
  p: PayloadOf<'device.proxy_route'>,
  signal: AbortSignal,
): Promise<ResponseOf<'device.proxy_route'>> {
  const shell = deviceShell(device, signal);
  const previous = await readProxy(shell);
  const value = proxyValue(p.port);
  if (previous !== null && previous !== value && /^(127\.0\.0\.1|localhost):\d+$/.test(previous)) {
    // Another local proxy (Charles, mitmproxy, another capture) routes this device now.
    throw new BusError(
      'BUSY',
      `${device.serial} already sends its traffic to a proxy on the device (${previous}); stop that capture or clear the setting (settings put global http_proxy :0) first`,
    );
  }
  await device.reverse(`tcp:${p.port}`, `tcp:${p.port}`, { signal });
  await put(shell, device.serial, value);
  return { previous: previous === value ? null : previous, proxy: value };
}

/** `device.proxy_unroute`: the setting restored while it is still droidbus's, the reverse removed. */
export async function unrouteProxy(
  device: Device,
  p: PayloadOf<'device.proxy_unroute'>,
  signal: AbortSignal,
): Promise<ResponseOf<'device.proxy_unroute'>> {
  const shell = deviceShell(device, signal);
  const current = await readProxy(shell);
  let restored = false;
  if (current === proxyValue(p.port)) {
    if (p.previous === null) {
      await put(shell, device.serial, ':0');
      await shell(sh`settings delete global http_proxy`);
    } else {
      await put(shell, device.serial, p.previous);
    }
    restored = true;
  }
  await device.removeReverse(`tcp:${p.port}`, { signal }).catch(() => undefined);
  return { restored, current: restored ? p.previous : current };
}
