/**
 * Evidence: the phones' published specifications (model, codename, Android release, screen size and
 * density), with the build properties their `getprop` shows (profiles/pixel-8-pro-android16/out/001-getprop.out).
 */
import type { SimDeviceIdentity } from './device-api.js';

/** A device's identity without its serial (the farm assigns ports and serials). */
export type ModelIdentity = Omit<SimDeviceIdentity, 'serial'>;

/**
 * Real phones' build properties (product, model, device, SDK, release) and screens, cycled through
 * by the farm so a fleet covers SDK 30–35 and several screen sizes.
 */
export const PHONE_MODELS: readonly ModelIdentity[] = [
  {
    product: 'shiba',
    model: 'Pixel 8',
    device: 'shiba',
    sdk: 34,
    release: '14',
    width: 1080,
    height: 2400,
    density: 420,
  },
  {
    product: 'lynx',
    model: 'Pixel 7a',
    device: 'lynx',
    sdk: 33,
    release: '13',
    width: 1080,
    height: 2400,
    density: 420,
  },
  {
    product: 'tokay',
    model: 'Pixel 9',
    device: 'tokay',
    sdk: 35,
    release: '15',
    width: 1080,
    height: 2424,
    density: 420,
  },
  {
    product: 'oriole',
    model: 'Pixel 6',
    device: 'oriole',
    sdk: 31,
    release: '12',
    width: 1080,
    height: 2400,
    density: 420,
  },
  {
    product: 'redfin',
    model: 'Pixel 5',
    device: 'redfin',
    sdk: 30,
    release: '11',
    width: 1080,
    height: 2340,
    density: 440,
  },
  {
    product: 'bluejay',
    model: 'Pixel 6a',
    device: 'bluejay',
    sdk: 32,
    release: '12',
    width: 1080,
    height: 2400,
    density: 420,
  },
  {
    product: 'dm1qxxx',
    model: 'SM-S911B',
    device: 'dm1q',
    sdk: 34,
    release: '14',
    width: 1080,
    height: 2340,
    density: 420,
  },
  {
    product: 'tangorpro',
    model: 'Pixel Tablet',
    device: 'tangorpro',
    sdk: 34,
    release: '14',
    width: 1600,
    height: 2560,
    density: 320,
  },
];

/** Google system images as the emulator reports them, each with the name `adb emu avd name` answers. */
export const EMULATOR_MODELS: readonly ModelIdentity[] = [
  {
    product: 'sdk_gphone64_x86_64',
    model: 'sdk_gphone64_x86_64',
    device: 'emu64xa',
    sdk: 34,
    release: '14',
    width: 1080,
    height: 2400,
    density: 420,
    avdName: 'Pixel_8_API_34',
  },
  {
    product: 'sdk_gphone64_x86_64',
    model: 'sdk_gphone64_x86_64',
    device: 'emu64xa',
    sdk: 35,
    release: '15',
    width: 1080,
    height: 2400,
    density: 420,
    avdName: 'Medium_Phone_API_35',
  },
  {
    product: 'sdk_gphone64_x86_64',
    model: 'sdk_gphone64_x86_64',
    device: 'emu64x',
    sdk: 33,
    release: '13',
    width: 1080,
    height: 2400,
    density: 420,
    avdName: 'Pixel_7a_API_33',
  },
  {
    product: 'sdk_gphone_x86_64',
    model: 'sdk_gphone_x86_64',
    device: 'generic_x86_64_arm64',
    sdk: 30,
    release: '11',
    width: 1080,
    height: 1920,
    density: 420,
    avdName: 'Pixel_2_API_30',
  },
];
