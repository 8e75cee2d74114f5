/**
 * No read answers before its data: a crash already in the device's buffer is found by the first
 * crash read after start_logcat — awaited in turn, or sent without waiting for start_logcat's
 * answer, as an agent's parallel tool calls do — every time, with no sleep anywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_PACKAGE } from '../../src/sim/index.js';
import { startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';

let world: DeviceWorld;
let serial: string;

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1 });
  serial = world.serials[0]!;
});
afterAll(() => world?.stop());

interface Crashes {
  total: number;
  crashes: { package: string | null; kind: string }[];
  buffer_wait?: { waited_ms: number; unread: string[] };
}

/** A fresh start: no stream, an empty store, one Java crash of the sample app in the device's buffer. */
async function crashWithoutStream(): Promise<void> {
  await world.call('stop_logcat', {});
  const cleared = await world.call('clear_logcat', {});
  expect(cleared.isError, cleared.text).toBe(false);
  await world.shell(serial, `logcat -c; sim crash ${SAMPLE_PACKAGE} java`);
}

describe('the first read after start_logcat', () => {
  it('start_logcat answers once the buffer is read, saying how many lines it held', async () => {
    await crashWithoutStream();
    const held = (await world.shell(serial, 'logcat -d -v threadtime')).split('\n').filter((l) => l !== '');
    const started = await world.call('start_logcat', { device_serial: serial });
    const stream = started.structured['stream'] as { buffer_lines: number; crashes: number };
    // The dump and the stream's first read agree to within the background lines written between them.
    expect(stream.buffer_lines).toBeGreaterThanOrEqual(held.length);
    expect(stream.crashes).toBe(1);
    expect(started.text).toContain(`read the ${stream.buffer_lines} lines its buffer held (1 crash)`);
  });

  it('finds a crash that was in the buffer, 50 times out of 50, read in turn', async () => {
    for (let i = 0; i < 50; i++) {
      await crashWithoutStream();
      const started = await world.call('start_logcat', { device_serial: serial });
      expect(started.isError, started.text).toBe(false);
      const r = await world.call('get_crash_logs', { package: SAMPLE_PACKAGE });
      const crashes = r.structured as unknown as Crashes;
      expect(crashes.total, `run ${i + 1}: ${r.text.slice(0, 300)}`).toBe(1);
      expect(crashes.crashes[0]).toMatchObject({ package: SAMPLE_PACKAGE, kind: 'java' });
    }
  });

  it('finds it 50 times out of 50 when the read is sent beside start_logcat, not after its answer', async () => {
    for (let i = 0; i < 50; i++) {
      await crashWithoutStream();
      const [started, read, trace] = await Promise.all([
        world.call('start_logcat', { device_serial: serial }),
        world.call('get_crash_logs', { package: SAMPLE_PACKAGE }),
        world.call('get_crash_stack_trace', { package: SAMPLE_PACKAGE }),
      ]);
      expect(started.isError, started.text).toBe(false);
      const crashes = read.structured as unknown as Crashes;
      expect(crashes.total, `run ${i + 1}: ${read.text.slice(0, 300)}`).toBe(1);
      expect(trace.isError, `run ${i + 1}: ${trace.text.slice(0, 300)}`).toBe(false);
      expect(trace.text).toContain('FATAL EXCEPTION: main');
      // The session's reads wait for its start_logcat; a stream another session starts is waited
      // for by the logcat actor, and the answer says so.
      expect(crashes.buffer_wait?.unread ?? []).toEqual([]);
    }
  });
});
