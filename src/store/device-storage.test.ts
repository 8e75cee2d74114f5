import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DeviceStorageError,
  allowDeviceDir,
  allowedDeviceDirs,
  listDeviceStorage,
  revokeDeviceDir,
} from './device-storage.js';
import { settingsPath, updateSettings } from './settings.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'droidbus-storage-'));
  process.env['DROIDBUS_HOME'] = home;
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  delete process.env['DROIDBUS_HOME'];
});

describe('the device storage allow list', () => {
  it('allows folders per serial, once each, and keeps other settings', async () => {
    await updateSettings((s) => {
      s.trusted_projects.push('/p');
    });
    expect(await allowDeviceDir('emulator-5554', '/sdcard/Download/')).toBe(true);
    expect(await allowDeviceDir('emulator-5554', '/sdcard/Download')).toBe(false);
    await allowDeviceDir('R58M1', '/sdcard/DCIM');
    expect(allowedDeviceDirs('emulator-5554')).toEqual(['/sdcard/Download']);
    expect(listDeviceStorage()).toEqual({ 'emulator-5554': ['/sdcard/Download'], R58M1: ['/sdcard/DCIM'] });
    const raw = JSON.parse(readFileSync(settingsPath(), 'utf8')) as Record<string, unknown>;
    expect(raw['trusted_projects']).toEqual(['/p']);
  });

  it('takes the LABEL/serial form of a device on one of several adb servers, as the file tools name it', async () => {
    expect(await allowDeviceDir('lab/emulator-5554', '/sdcard/Download')).toBe(true);
    expect(allowedDeviceDirs('lab/emulator-5554')).toEqual(['/sdcard/Download']);
    expect(allowedDeviceDirs('emulator-5554')).toEqual([]);
    for (const bad of ['lab/x/y', '/emulator-5554', '9lab/emulator-5554', 'lab/', 'a b']) {
      await expect(allowDeviceDir(bad, '/sdcard/Download'), bad).rejects.toThrow(DeviceStorageError);
    }
  });

  it('revokes one folder or all of a device', async () => {
    await allowDeviceDir('emulator-5554', '/sdcard/Download');
    await allowDeviceDir('emulator-5554', '/sdcard/Documents');
    expect(await revokeDeviceDir('emulator-5554', '/sdcard/Download')).toEqual(['/sdcard/Download']);
    expect(allowedDeviceDirs('emulator-5554')).toEqual(['/sdcard/Documents']);
    expect(await revokeDeviceDir('emulator-5554')).toEqual(['/sdcard/Documents']);
    expect(listDeviceStorage()).toEqual({});
    expect(await revokeDeviceDir('emulator-5554', '/sdcard/x')).toEqual([]);
  });

  it('refuses the root, relative and dotted folders, and serials adb would not print', async () => {
    for (const dir of ['/', 'sdcard', '/sdcard/../data', '/sdcard/./x', '/a\nb']) {
      await expect(allowDeviceDir('emulator-5554', dir), dir).rejects.toBeInstanceOf(DeviceStorageError);
    }
    await expect(allowDeviceDir('a b', '/sdcard')).rejects.toBeInstanceOf(DeviceStorageError);
    expect(listDeviceStorage()).toEqual({});
  });

  it('survives many writers at once without losing an entry (data lock, atomic writes)', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => allowDeviceDir('emulator-5554', `/sdcard/Folder${i}`)),
    );
    expect(allowedDeviceDirs('emulator-5554').sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `/sdcard/Folder${i}`).sort(),
    );
  });
});
