import type { SimDeviceIdentity } from '../../src/sim/index.js';

/**
 * The device the simulator's unit tests make (a Pixel 7 on Android 14, as sdk_gphone64_arm64
 * reports it), serial `127.0.0.1:PORT` so that tests of different files seed different devices.
 */
export function testIdentity(port: number, overrides: Partial<SimDeviceIdentity> = {}): SimDeviceIdentity {
  return {
    serial: `127.0.0.1:${port}`,
    product: 'sdk_gphone64_arm64',
    model: 'Pixel 7',
    device: 'panther',
    sdk: 34,
    release: '14',
    width: 1080,
    height: 2400,
    density: 420,
    ...overrides,
  };
}
