import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AdbClient } from '../../adb/client.js';
import { Device } from '../../device/device.js';
import { BusError } from '../../bus/errors.js';
import { CrashGroups } from './crash-group.js';
import { DeviceStream, logcatCommand } from './device-stream.js';
import { LogStore } from './log-store.js';
import { lastRead } from '../../../tests/helpers/until.js';

/** An adb server that accepts connections and never answers: what a wedged server looks like. */
function silentServer(): Promise<{ port: number; transports: () => net.Socket[]; close(): Promise<void> }> {
  const sockets: { socket: net.Socket; text: string }[] = [];
  const server = net.createServer((socket) => {
    const entry = { socket, text: '' };
    sockets.push(entry);
    socket.on('data', (d: Buffer) => (entry.text += d.toString('latin1')));
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      resolve({
        port,
        // Connections that asked for a device transport: the logcat stream (ps waits for features).
        transports: () =>
          sockets.filter((s) => s.text.includes('host:transport:') && !s.socket.closed).map((s) => s.socket),
        close: () =>
          new Promise((done) => {
            sockets.forEach((s) => s.socket.destroy());
            server.close(() => done());
          }),
      });
    });
  });
}

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('logcatCommand', () => {
  it('reads the buffer first by default, only the newest record from now, and from a time resumed', () => {
    expect(logcatCommand({ kind: 'buffer' })).toBe('logcat -v threadtime');
    expect(logcatCommand({ kind: 'now' })).toBe('logcat -v threadtime -T 1');
    expect(logcatCommand({ kind: 'resume', point: { since: '12-02 16:45:01.250', seen: new Map() } })).toBe(
      "logcat -v threadtime -T '12-02 16:45:01.250'",
    );
  });
});

describe('DeviceStream', () => {
  it('fails with TIMEOUT when nothing arrives in time, and closes its socket', async () => {
    const server = await silentServer();
    cleanup = server.close;
    const client = new AdbClient({ kind: 'tcp', host: '127.0.0.1', port: server.port, source: 'test' });
    const states: string[] = [];
    const stream = new DeviceStream(new Device('emulator-5554', client), new LogStore(), new CrashGroups(), {
      crashes: () => undefined,
      state: (s) => states.push(s.state),
    });
    const err = await stream.start({ kind: 'buffer' }, 300, new AbortController().signal).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BusError);
    expect((err as BusError).code).toBe('TIMEOUT');
    expect((err as BusError).message).toContain('did not start within 0.3 s');
    expect(stream.state).toBe('stopped');
    expect(stream.reason).toMatch(/^did not start: /);
    expect(stream.live).toBe(false);
    expect(states).toEqual(['stopped']);
    expect(
      await lastRead(
        () => server.transports(),
        (t) => t.length === 0,
        5_000,
        20,
      ),
    ).toHaveLength(0);
  });

  it('gives up at once when the request that started it is cancelled', async () => {
    const server = await silentServer();
    cleanup = server.close;
    const client = new AdbClient({ kind: 'tcp', host: '127.0.0.1', port: server.port, source: 'test' });
    const stream = new DeviceStream(new Device('emulator-5554', client), new LogStore(), new CrashGroups(), {
      crashes: () => undefined,
      state: () => undefined,
    });
    const controller = new AbortController();
    const started = stream.start({ kind: 'buffer' }, 60_000, controller.signal);
    controller.abort();
    await expect(started).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(stream.state).toBe('stopped');
    expect(stream.live).toBe(false);
  });
});
