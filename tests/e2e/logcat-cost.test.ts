/**
 * One query cannot stall logcat or erase it (droidbus issue 49), against the built host, a real adb
 * server and a sim device whose buffer holds 3,000 lines of 1 KB: the patterns that held the
 * logcat thread for seconds are refused or answered within a second while a second client's
 * stats calls keep being answered, and the store keeps every line across a killed logcat worker.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as ControlClient from '../../src/host/control-client.js';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { writeSample } from '../helpers/build-project.js';
import { shortTempDir, startHostProcess, waitFor, type HostProcess } from '../helpers/host.js';
import { fromDist, tempDir } from '../helpers/paths.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';
import { bigLog } from '../helpers/big-log.js';

type Client = Awaited<ReturnType<typeof ControlClient.connectControl>>['client'];

const home = shortTempDir('db-cost-');
const work = tempDir('droidbus-cost-');
let server: AdbServer;
let farm: SimFarm;
let host: HostProcess;
let asker: Client;
let watcher: Client;
let serial: string;
const LINES = 3_000;

beforeAll(async () => {
  await writeSample(path.join(work.dir, 'app'), home.dir);
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 1 });
  serial = farm.devices[0]!.serial;
  const env = { ...(server.env as Record<string, string>), DROIDBUS_HOME: home.dir };
  host = await startHostProcess(['--project', path.join(work.dir, 'app'), '--no-ui'], { env });
  const { connectControl } = await fromDist<typeof ControlClient>('host/control-client.ts');
  const socket = path.join(home.dir, 'host.sock');
  asker = (await connectControl(socket, 5_000)).client;
  watcher = (await connectControl(socket, 5_000)).client;
  const file = path.join(work.dir, 'big.log');
  writeFileSync(file, bigLog(LINES));
  const logcatG = await server.adb(['-s', serial, 'logcat', '-G', '16M']);
  expect(logcatG.code, logcatG.stderr).toBe(0);
  expect((await server.adb(['-s', serial, 'push', file, '/data/local/tmp/big.log'])).code).toBe(0);
  const replayed = await server.adb(['-s', serial, 'shell', 'sim logcat replay /data/local/tmp/big.log']);
  expect(replayed.stdout).toContain(`replayed ${LINES} entries`);
  await waitFor(
    async () =>
      (await asker.request('devices.list', {})).devices.some(
        (d) => d.serial === serial && d.state === 'device',
      ),
    `the host to list ${serial}`,
    20_000,
  );
  await asker.request('logcat.start', { serial, from_now: false, resume: false });
  await waitFor(
    async () => (await asker.request('logcat.stats', {})).store.entries >= LINES,
    'the store to hold the device buffer',
    30_000,
  );
}, 120_000);

afterAll(async () => {
  await asker?.close();
  await watcher?.close();
  await host?.stop();
  await farm?.stop();
  await server?.stop();
  home.remove();
  work.remove();
});

/** Polls logcat.stats from the second client until stopped: each call's time and failures. */
function watchStats(): { stop(): Promise<{ times: number[]; failures: string[] }> } {
  const times: number[] = [];
  const failures: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        await watcher.request('logcat.stats', {});
        times.push(performance.now() - t0);
      } catch (err) {
        failures.push((err as Error).message);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { times, failures };
    },
  };
}

function p99(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
}

describe('logcat queries bounded by cost', () => {
  it('refuses or answers the attack patterns within a second, another client answered throughout', async () => {
    const before = (await asker.request('logcat.stats', {})).store;
    const stats = watchStats();
    const outcomes: string[] = [];
    for (const query of [
      'message~:(?i).{999}.{999}Z',
      'line~:(?s)(.*a){12}$',
      `message~:${'a?'.repeat(500)}${'a'.repeat(500)}`,
      `message~:${Array.from({ length: 330 }, (_, i) => `word${i}`).join('|')}`,
      // Within the budget: answered, yielding to the other client.
      'line~:(?s)(.*a){2}',
      'message~:(?i)STATUS.200.in.[0-9]+.ms',
    ]) {
      const t0 = performance.now();
      // Every line may match: the scans read the whole store.
      const outcome = await asker.request('logcat.entries', { query, count: 10_000 }).then(
        (r) => `answered ${r.entries.length}`,
        (err: Error) => `refused: ${err.message}`,
      );
      const ms = performance.now() - t0;
      outcomes.push(outcome);
      expect(ms, `${query.slice(0, 40)}: ${outcome}`).toBeLessThan(1_000);
    }
    const { times, failures } = await stats.stop();
    expect(outcomes.slice(0, 4).every((o) => o.startsWith('refused:'))).toBe(true);
    expect(outcomes[0]).toContain('more than the 100 allowed');
    expect(outcomes[1]).toContain('ms of regex work');
    // The first matches the device's own background lines too; the second only the 3,000.
    expect(Number(outcomes[4]!.split(' ')[1])).toBeGreaterThanOrEqual(LINES);
    expect(outcomes[5]).toBe(`answered ${LINES}`);
    expect(failures).toEqual([]);
    expect(times.length).toBeGreaterThanOrEqual(3);
    expect(p99(times)).toBeLessThan(250);
    process.stderr.write(`logcat-cost: stats calls ${times.length}, p99 ${p99(times).toFixed(1)} ms\n`);
    const after = (await asker.request('logcat.stats', {})).store;
    expect(after.entries).toBeGreaterThanOrEqual(before.entries);
    expect(after.oldest_seq).toBe(before.oldest_seq);
  });

  it('keeps every line and crash it held when the logcat worker is killed', async () => {
    const before = (await asker.request('logcat.stats', {})).store;
    const oldest = await asker.request('logcat.entries', { before_seq: before.oldest_seq + 1, count: 1 });
    expect(oldest.entries).toHaveLength(1);
    // The device no longer holds them either: only droidbus's journal can give them back.
    expect((await server.adb(['-s', serial, 'logcat', '-c'])).code).toBe(0);
    const killed = await asker.request('host.replace_worker', { group: 'logcat', index: 0 });
    expect(killed.actors).toContain('logcat');
    // The restarted actor answers with the store its predecessor had, read back from its journal.
    const after = await waitFor(
      async () => (await asker.request('logcat.stats', {}).catch(() => null))?.store,
      'the logcat actor to answer again',
      30_000,
    );
    expect(after.entries).toBeGreaterThanOrEqual(before.entries);
    expect(after.oldest_seq).toBe(before.oldest_seq);
    const again = await asker.request('logcat.entries', { before_seq: before.oldest_seq + 1, count: 1 });
    expect(again.entries[0]?.message).toBe(oldest.entries[0]?.message);
    expect(again.entries[0]?.seq).toBe(oldest.entries[0]?.seq);
  });
});
