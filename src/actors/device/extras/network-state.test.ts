import { afterEach, describe, expect, it } from 'vitest';
import { BusError } from '../../../bus/errors.js';
import { type SimDevice, runOn, createSimDevice } from '../../../sim/index.js';
import type { DeviceShell } from '../../../device/device-shell.js';
import { setNetworkState } from './network-state.js';

// The network logic against the simulator's device model in-process (its shell parses the quoted
// command lines as /system/bin/sh does): Android 14 has `cmd connectivity airplane-mode`; Android 10
// has not, and refuses the AIRPLANE_MODE broadcast from the shell; Android 6 takes the broadcast.

let dev: SimDevice;
function device(sdk: number, serial = 'R58M1234ABC'): { dev: SimDevice; shell: DeviceShell } {
  dev = createSimDevice({
    identity: {
      serial,
      product: 'p',
      model: 'Pixel',
      device: 'd',
      sdk,
      release: String(sdk),
      width: 1080,
      height: 2400,
      density: 420,
    },
    logcatRate: 0,
    dumpLatencyMs: 5,
  });
  const shell: DeviceShell = async (command) => {
    const r = await runOn(dev, command);
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.code };
  };
  return { dev, shell };
}
afterEach(() => dev?.close());

async function setting(d: SimDevice, key: string): Promise<string> {
  return (await runOn(d, `settings get global ${key}`)).stdout.trim();
}

describe('set_network_state on the device', () => {
  it('uses cmd connectivity for airplane mode where it exists, and reports the state before and after', async () => {
    const { dev: d, shell } = device(34);
    const r = await setNetworkState('R58M1234ABC', shell, { airplane_mode: true, mobile_data: false });
    expect(r).toMatchObject({
      previous: { wifi: true, mobile_data: true, airplane_mode: false },
      current: { mobile_data: false, airplane_mode: true },
      airplane_method: 'cmd_connectivity',
    });
    expect(r.commands).toEqual([
      ['cmd', 'connectivity', 'airplane-mode', 'enable'],
      ['svc', 'data', 'disable'],
    ]);
    expect(await setting(d, 'airplane_mode_on')).toBe('1');
  });

  it('puts the setting back when the device has no airplane-mode command and refuses the broadcast', async () => {
    const { dev: d, shell } = device(29);
    const failure = await setNetworkState('R58M1234ABC', shell, { airplane_mode: true }).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(BusError);
    expect((failure as BusError).code).toBe('FAILED');
    expect((failure as BusError).message).toMatch(/refused the AIRPLANE_MODE broadcast.*Permission Denial/);
    expect((failure as BusError).message).toContain('put back');
    expect(await setting(d, 'airplane_mode_on')).toBe('0');
  });

  it('falls back to the setting and the broadcast on old Androids', async () => {
    const { dev: d, shell } = device(23);
    const r = await setNetworkState('R58M1234ABC', shell, { airplane_mode: true });
    expect(r.airplane_method).toBe('settings_broadcast');
    expect(r.commands.slice(1)).toEqual([
      ['settings', 'put', 'global', 'airplane_mode_on', '1'],
      ['am', 'broadcast', '-a', 'android.intent.action.AIRPLANE_MODE', '--ez', 'state', 'true'],
    ]);
    expect(await setting(d, 'airplane_mode_on')).toBe('1');
  });

  it('refuses what would cut a wireless adb connection before running anything', async () => {
    const { dev: d, shell } = device(34, '192.168.1.20:5555');
    for (const change of [{ wifi: false }, { airplane_mode: true }]) {
      const refused = await setNetworkState('192.168.1.20:5555', shell, change).catch((e: unknown) => e);
      expect((refused as BusError).code).toBe('INVALID');
    }
    expect(await setting(d, 'wifi_on')).toBe('1');
    const r = await setNetworkState('192.168.1.20:5555', shell, { wifi: true, airplane_mode: false });
    expect(r.current).toMatchObject({ wifi: true, airplane_mode: false });
    const nothing = await setNetworkState('192.168.1.20:5555', shell, {}).catch((e: unknown) => e);
    expect((nothing as BusError).code).toBe('INVALID');
  });
});
