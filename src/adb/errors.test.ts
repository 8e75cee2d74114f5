import { describe, expect, it } from 'vitest';
import { adbFailure } from './errors.js';

describe("the adb server's FAIL answers, classified", () => {
  it("reads a device service's `closed` as the device gone, and a host service's as a plain failure", () => {
    expect(adbFailure('closed', 'emulator-5554')).toMatchObject({
      kind: 'device_offline',
      message: "device 'emulator-5554' is no longer connected (adb: closed)",
    });
    expect(adbFailure('closed', null)).toMatchObject({ kind: 'failed', message: 'adb: closed' });
    expect(adbFailure("device 'x' not found", 'x').kind).toBe('device_not_found');
  });
});
