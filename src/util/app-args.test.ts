import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_CLASS_RE,
  AVD_NAME_RE,
  PERMISSION_RE,
  emulatorConsolePortOf,
  isWirelessAdbSerial,
  orientationOfRotation,
} from './app-args.js';

describe('device-admin argument rules', () => {
  it('accepts activity classes and refuses shell-shaped ones', () => {
    expect(ACTIVITY_CLASS_RE.test('.LoginActivity')).toBe(true);
    expect(ACTIVITY_CLASS_RE.test('com.example.ui.Main$Inner')).toBe(true);
    expect(ACTIVITY_CLASS_RE.test('.Main;reboot')).toBe(false);
    expect(ACTIVITY_CLASS_RE.test('com.example/.Main')).toBe(false);
    expect(ACTIVITY_CLASS_RE.test('-n')).toBe(false);
  });

  it('accepts permission names and refuses injections', () => {
    expect(PERMISSION_RE.test('android.permission.CAMERA')).toBe(true);
    expect(PERMISSION_RE.test('com.example.permission.MINE')).toBe(true);
    expect(PERMISSION_RE.test('CAMERA')).toBe(false);
    expect(PERMISSION_RE.test('android.permission.CAMERA$(reboot)')).toBe(false);
  });

  it('accepts AVD names avdmanager makes and refuses options and paths', () => {
    expect(AVD_NAME_RE.test('Pixel_8_API_34')).toBe(true);
    expect(AVD_NAME_RE.test('my-avd.2')).toBe(true);
    expect(AVD_NAME_RE.test('-wipe-data')).toBe(false);
    expect(AVD_NAME_RE.test('../x')).toBe(false);
    expect(AVD_NAME_RE.test('a b')).toBe(false);
  });

  it('tells wireless serials from USB and emulator ones', () => {
    expect(isWirelessAdbSerial('127.0.0.1:40123')).toBe(true);
    expect(isWirelessAdbSerial('[::1]:5555')).toBe(true);
    expect(isWirelessAdbSerial('adb-R58M123-AbCdEf._adb-tls-connect._tcp')).toBe(true);
    expect(isWirelessAdbSerial('adb-R58M123-AbCdEf._adb._tcp.')).toBe(true);
    expect(isWirelessAdbSerial('emulator-5554')).toBe(false);
    expect(isWirelessAdbSerial('R58M1234ABC')).toBe(false);
  });

  it('reads console ports from emulator serials only', () => {
    expect(emulatorConsolePortOf('emulator-5554')).toBe(5554);
    expect(emulatorConsolePortOf('emulator-99999')).toBeNull();
    expect(emulatorConsolePortOf('127.0.0.1:5555')).toBeNull();
  });

  it('names the orientation of each locked rotation', () => {
    expect(orientationOfRotation(0)).toBe('portrait');
    expect(orientationOfRotation(3)).toBe('reverse_landscape');
    expect(orientationOfRotation(7)).toBeNull();
  });
});
