import { until } from '../helpers/until.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type * as Runtime from '../../src/actors/runtime.js';
import type { BusError } from '../../src/bus/errors.js';
import { fromDist } from '../helpers/paths.js';
import { lastRead } from '../helpers/until.js';

let runtime: typeof Runtime;
let system: Runtime.ActorSystem;

beforeAll(async () => {
  runtime = await fromDist<typeof Runtime>('actors/runtime.ts');
  system = runtime.startActorSystem();
});
afterAll(async () => system.shutdown());

async function rejection(promise: Promise<unknown>): Promise<BusError> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as BusError,
  );
}

describe.each([
  ['worker threads', false],
  ['the inline host (DROIDBUS_INLINE=1)', true],
])('the actor runtime on %s', (_label, inline) => {
  let sys: Runtime.ActorSystem;
  beforeAll(() => {
    sys = runtime.startActorSystem({ inline });
  });
  afterAll(async () => sys.shutdown());

  it('answers a request from the real system actor, on a worker thread or the main one', async () => {
    expect(sys.supervisor.inline).toBe(inline);
    const answer = await sys.client({ kind: 'cli' }).request('system.ping', { echo: 'hello' });
    expect(answer.echo).toBe('hello');
    expect(answer.pid).toBe(process.pid);
    expect(answer.thread_id === 0).toBe(inline);
  });

  it('fails a request whose deadline passes with TIMEOUT naming the actor', async () => {
    const client = sys.client({ kind: 'cli' });
    const err = await rejection(client.request('system.ping', { delay_ms: 10_000 }, { timeoutMs: 50 }));
    expect(err.code).toBe('TIMEOUT');
    expect(err.actor).toBe('system');
    expect(err.message).toContain('system.ping');
  });

  it('cancels a request when its signal aborts, and the actor lets go of it', async () => {
    const client = sys.client({ kind: 'cli' });
    const controller = new AbortController();
    const pending = client.request('system.ping', { delay_ms: 10_000 }, { signal: controller.signal });
    setImmediate(() => controller.abort());
    const err = await rejection(pending);
    expect(err.code).toBe('CANCELLED');
    // The actor's handler saw its AbortSignal and answered, so its mailbox slot is free again.
    const inflight = await lastRead(
      () => sys.bus.inflightByAddress()['system'] ?? 0,
      (n) => n === 0,
      5_000,
      10,
    );
    expect(inflight).toBe(0);
  });

  it('checks payloads against the contract and answers INVALID', async () => {
    const err = await rejection(sys.client({ kind: 'cli' }).request('system.ping', { delay_ms: -5 }));
    expect(err.code).toBe('INVALID');
    expect(err.message).toContain('delay_ms');
  });

  it('fails a request in flight on a host that dies with CRASHED naming the actor, and the next one succeeds', async () => {
    const client = sys.client({ kind: 'cli' });
    const first = await client.request('system.ping', {});
    const inFlight = client.request('system.ping', { delay_ms: 10_000 });
    await until('the ping to reach the actor', () =>
      sys.bus.inflightByAddress()['system'] ? true : undefined,
    );
    await sys.supervisor.crashWorkerOf('system');
    const err = await rejection(inFlight);
    expect(err.code).toBe('CRASHED');
    expect(err.actor).toBe('system');
    expect(err.message).toContain('the system actor crashed while handling system.ping');
    const after = await client.request('system.ping', { echo: 'again' });
    expect(after.echo).toBe('again');
    if (!inline) {
      expect(after.thread_id).not.toBe(first.thread_id); // a fresh worker thread
    }
  });

  it('answers BUSY at once when an actor has as many requests as its mailbox holds', async () => {
    const small = runtime.startActorSystem({
      inline,
      kinds: {
        system: {
          module: new URL('../../dist/actors/system/system-actor.js', import.meta.url),
          group: 'main',
          mailbox: 2,
        },
      },
    });
    try {
      const client = small.client({ kind: 'cli' });
      const controller = new AbortController();
      const held = [1, 2].map(() =>
        client
          .request('system.ping', { delay_ms: 10_000 }, { signal: controller.signal })
          .catch(() => undefined),
      );
      const started = Date.now();
      const err = await rejection(client.request('system.ping', {}));
      expect(err.code).toBe('BUSY');
      expect(err.message).toContain('system');
      expect(Date.now() - started).toBeLessThan(5_000); // answered at once, not after the held ones
      controller.abort();
      await Promise.all(held);
    } finally {
      await small.shutdown();
    }
  });
});

describe('a request the bus answers at once', () => {
  it('rejects with the bus error when it is refused inside dispatch (not with a ReferenceError)', async () => {
    const quitting = runtime.startActorSystem();
    await quitting.supervisor.shutdown();
    // The supervisor refuses a new actor while shutting down before dispatch returns.
    const err = await rejection(quitting.client({ kind: 'cli' }).request('system.ping', {}));
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.message).toContain('shutting down');
    await quitting.shutdown();
  });
});

describe('the watchdog', () => {
  it('replaces a worker whose handler keeps its thread past the deadline, and the next request is answered', async () => {
    const spinning = runtime.startActorSystem({
      stuckGraceMs: 200,
      kinds: {
        system: {
          module: new URL('../fixtures/actors/spinning-system-actor.mjs', import.meta.url),
          group: 'main',
          mailbox: 8,
        },
      },
    });
    const states: { address: string; state: string; reason?: string }[] = [];
    spinning.bus.subscribe('actor.state', (s) => states.push(s));
    try {
      const client = spinning.client({ kind: 'cli' });
      const first = await client.request('system.ping', {});
      const started = Date.now();
      const spin = await rejection(client.request('system.ping', { echo: 'spin' }, { timeoutMs: 300 }));
      expect(spin.code).toBe('TIMEOUT');
      const crashed = await until(
        'the stuck worker to be replaced',
        () => states.find((s) => s.address === 'system' && s.state === 'crashed'),
        20_000,
      );
      expect(crashed.reason).toContain('kept its worker thread busy handling system.ping');
      // Deadline (300 ms) + grace (200 ms) + the ping's 2 s + the once-a-second check.
      expect(Date.now() - started).toBeLessThan(10_000);
      const after = await client.request('system.ping', { echo: 'after' });
      expect(after.echo).toBe('after');
      expect(after.thread_id).not.toBe(first.thread_id);
    } finally {
      await spinning.shutdown();
    }
  });

  it('leaves a worker alone whose handler is past its deadline but waiting, not spinning', async () => {
    const waiting = runtime.startActorSystem({
      stuckGraceMs: 100,
      kinds: {
        system: {
          module: new URL('../fixtures/actors/spinning-system-actor.mjs', import.meta.url),
          group: 'main',
          mailbox: 8,
        },
      },
    });
    const states: { address: string; state: string }[] = [];
    waiting.bus.subscribe('actor.state', (s) => states.push(s));
    try {
      const client = waiting.client({ kind: 'cli' });
      const first = await client.request('system.ping', {});
      // The handler waits 4 s, ignoring its abort, while its request timed out after 200 ms.
      expect(
        (await rejection(client.request('system.ping', { echo: 'wait' }, { timeoutMs: 200 }))).code,
      ).toBe('TIMEOUT');
      // The watchdog pings the thread meanwhile (the handler is past deadline + grace for ~3.8 s);
      // wait until the handler lets go of its request, then the same thread answers.
      const held = await lastRead(
        () => waiting.bus.inflightByAddress()['system'] ?? 0,
        (n) => n === 0,
        10_000,
      );
      expect(held).toBe(0);
      const later = await client.request('system.ping', { echo: 'still here' });
      expect(later.thread_id).toBe(first.thread_id);
      expect(states.filter((s) => s.state === 'crashed')).toEqual([]);
    } finally {
      await waiting.shutdown();
    }
  });
});

describe('events', () => {
  it('keeps delivering to other listeners when one throws', () => {
    const seen: string[] = [];
    const offA = system.bus.subscribe('actor.state', () => {
      throw new Error('listener bug');
    });
    const offB = system.bus.subscribe('actor.state', (p) => seen.push((p as { address: string }).address));
    system.bus.publish('actor.state', { address: 'device/x', state: 'started' });
    offA();
    offB();
    expect(seen).toEqual(['device/x']);
  });
});

async function runProbe(name: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const probe = fileURLToPath(new URL(`../fixtures/actors/${name}`, import.meta.url));
  const child = spawn(process.execPath, [probe], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

describe('stdout', () => {
  it('never carries what a worker writes: a worker that logs goes to stderr', async () => {
    const { code, stdout, stderr } = await runProbe('stdout-probe.mjs');
    expect(code).toBe(0);
    expect(stderr).toContain('answer: {"echo":"probe"');
    // The worker did write — and it landed on stderr.
    expect(stderr).toContain('chatty actor handling a ping');
    expect(stderr).toContain('raw stdout write from a worker');
    expect(stdout).toBe('');
  });
});

describe('pools', () => {
  it('run CPU-bound tasks on their own threads and send what a task prints to stderr', async () => {
    const { code, stdout, stderr } = await runProbe('pool-probe.mjs');
    expect(code).toBe(0);
    expect(stderr).toContain('result: 42');
    expect(stderr).toContain('chatty pool task 21');
    expect(stderr).toContain('raw stdout write from a pool thread');
    expect(stdout).toBe('');
  });
});
