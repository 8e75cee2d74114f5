/**
 * bench/sessions: what recording debug sessions costs.
 *  1. an agent action, one at a time: the request's round trip (the frontend never waits for it;
 *     this is how long the actor takes to have it on disk, lock and atomic write included);
 *  2. agent actions 64 at a time: the journal batches them under one lock and one write;
 *  3. an agent action for a device without a session (most device tool calls): no lock, no write;
 *  4. get_debug_session's read of a full session (500 agent actions, 1,000 other events).
 * Run: npm run build && npx tsx bench/sessions.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Runtime from '../src/actors/runtime.js';
import type { InstallRecord } from '../src/bus/messages/app-events.js';
import { printTable, summarizeUs } from './stats.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const dist = <T>(rel: string): Promise<T> => import(path.join(ROOT, 'dist', rel)) as Promise<T>;
const N = Number(process.env['BENCH_N'] ?? 1000);

async function main(): Promise<void> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'droidbus-bench-sessions-'));
  process.env['DROIDBUS_HOME'] = home;
  const { startActorSystem } = await dist<typeof Runtime>('actors/runtime.js');
  const system = startActorSystem();
  await system.supervisor.spawn('sessions');
  const client = system.client({ kind: 'cli' });
  const actor = { kind: 'agent' as const, session_id: 'bench', client_name: 'bench', standalone: true };
  const install: InstallRecord = {
    id: 'bench',
    device: 'bench-device',
    package: 'com.example.bench',
    apk_path: '/x.apk',
    apk_sha256: 'a'.repeat(64),
    apk_size: 1,
    version_code: 1,
    version_name: '1',
    build_id: null,
    module: ':app',
    variant: 'debug',
    project_root: '/p',
    installed_at: new Date().toISOString(),
    device_last_update_ms: null,
    installed_by: actor,
    recorded_by: 'standalone',
  };
  system.bus.publish('app.installed', install);
  let id: string | undefined;
  while (id === undefined) {
    id = (await client.request('sessions.list', {})).sessions[0]?.id;
  }
  const action = () =>
    client.request('sessions.agent_action', {
      tool: 'ui_tap',
      kind: 'write',
      success: true,
      status: 'ok',
      duration_ms: 3,
      serial: 'bench-device',
      package: null,
      actor,
      at: new Date().toISOString(),
    });

  const none: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await client.request('sessions.agent_action', {
      tool: 'ui_tap',
      kind: 'write',
      success: true,
      status: 'ok',
      duration_ms: 3,
      serial: 'no-session-device',
      package: null,
      actor,
      at: new Date().toISOString(),
    });
    none.push(performance.now() - t0);
  }
  const one: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await action();
    one.push(performance.now() - t0);
  }
  const burstStart = performance.now();
  const burstLatencies: number[] = [];
  for (let b = 0; b < N / 64; b++) {
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        const t0 = performance.now();
        await action();
        burstLatencies.push(performance.now() - t0);
      }),
    );
  }
  const burstMs = performance.now() - burstStart;
  for (let i = 0; i < 1000; i++) {
    system.bus.publish('app.launched', {
      device: 'bench-device',
      package: 'com.example.bench',
      activity: null,
      restart: false,
      total_ms: 500,
      wait_ms: 510,
      launch_state: 'COLD',
      displayed_ms: null,
      by: actor,
      at: new Date().toISOString(),
    });
  }
  while (
    (await client.request('sessions.get', { session_id: id, max_events: 0 })).session.counts.launches < 1000
  ) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const reads: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    await client.request('sessions.get', { session_id: id, max_events: 500 });
    reads.push(performance.now() - t0);
  }
  const oneUs = summarizeUs(one);
  const burstUs = summarizeUs(burstLatencies);
  const readUs = summarizeUs(reads);
  printTable('debug sessions (in-process actor system, real files and lock)', [
    {
      what: 'agent action, one at a time',
      median_us: oneUs.median_us,
      p99_us: oneUs.p99_us,
      per_second: Math.round(1000 / (one.reduce((a, b) => a + b, 0) / one.length)),
    },
    {
      what: 'agent actions, 64 at a time',
      median_us: burstUs.median_us,
      p99_us: burstUs.p99_us,
      per_second: Math.round((burstLatencies.length * 1000) / burstMs),
    },
    {
      what: 'agent action, device without a session',
      median_us: summarizeUs(none).median_us,
      p99_us: summarizeUs(none).p99_us,
      per_second: Math.round(1000 / (none.reduce((a, b) => a + b, 0) / none.length)),
    },
    {
      what: 'get_debug_session, 500 events of a full session',
      median_us: readUs.median_us,
      p99_us: readUs.p99_us,
      per_second: Math.round(1000 / (reads.reduce((a, b) => a + b, 0) / reads.length)),
    },
  ]);
  await system.shutdown();
  rmSync(home, { recursive: true, force: true });
}

await main();
