import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_PROJECTS, readLastDevices, recordLastDevice, RUN_DEVICES_FILE } from './run-devices.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'droidbus-run-devices-'));
  process.env['DROIDBUS_HOME'] = home;
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  delete process.env['DROIDBUS_HOME'];
});

describe('run configurations’ last devices', () => {
  it('remembers the last device per project and configuration', async () => {
    expect(readLastDevices('/p/one')).toEqual({});
    await recordLastDevice('/p/one', 'app (demoDebug)', 'emulator-5554');
    await recordLastDevice('/p/one', 'app (fullDebug)', 'R58M123');
    await recordLastDevice('/p/two', 'app (demoDebug)', '127.0.0.1:40001');
    await recordLastDevice('/p/one', 'app (demoDebug)', 'R58M999');
    expect(readLastDevices('/p/one')).toEqual({ 'app (demoDebug)': 'R58M999', 'app (fullDebug)': 'R58M123' });
    expect(readLastDevices('/p/two')).toEqual({ 'app (demoDebug)': '127.0.0.1:40001' });
  });

  it('keeps the projects used last, and writes under the lock without losing a concurrent record', async () => {
    for (let i = 0; i <= MAX_PROJECTS; i++) {
      await recordLastDevice(`/p/${i}`, 'app (debug)', `serial-${i}`);
    }
    expect(readLastDevices('/p/0')).toEqual({});
    expect(readLastDevices(`/p/${MAX_PROJECTS}`)).toEqual({ 'app (debug)': `serial-${MAX_PROJECTS}` });
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => recordLastDevice('/p/busy', `app (v${i})`, `s${i}`)),
    );
    expect(Object.keys(readLastDevices('/p/busy'))).toHaveLength(8);
  });

  it('starts over from a file that is not what it wrote', async () => {
    writeFileSync(path.join(home, RUN_DEVICES_FILE), '{"broken": ');
    expect(readLastDevices('/p/one')).toEqual({});
    writeFileSync(path.join(home, RUN_DEVICES_FILE), JSON.stringify({ '/p/one': { devices: 'nope' } }));
    expect(readLastDevices('/p/one')).toEqual({});
    await recordLastDevice('/p/one', 'app (debug)', 'emulator-5556');
    const saved = JSON.parse(readFileSync(path.join(home, RUN_DEVICES_FILE), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(saved)).toEqual(['/p/one']);
    expect(readLastDevices('/p/one')).toEqual({ 'app (debug)': 'emulator-5556' });
  });
});
