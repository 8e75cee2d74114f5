import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Runtime from '../../src/actors/runtime.js';
import type { KindConfig } from '../../src/actors/kinds.js';
import type { BusError } from '../../src/bus/errors.js';
import { fromDist } from '../helpers/paths.js';

/**
 * The inline host (DROIDBUS_INLINE=1, `droidbus mcp --inline`) runs the same actor modules on the
 * main thread. These tests hold it to the worker runtime's rules: deadlines, cancellation, BUSY,
 * payload checks, a terminated host failing its requests CRASHED, lanes and concurrency.
 */

let runtime: typeof Runtime;
let system: Runtime.ActorSystem;

beforeAll(async () => {
  runtime = await fromDist<typeof Runtime>('actors/runtime.ts');
  system = runtime.startActorSystem({ inline: true });
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

function fixtureKind(name: string, mailbox = 16): Record<string, KindConfig> {
  return {
    system: {
      module: new URL(`../fixtures/actors/${name}`, import.meta.url),
      group: 'main',
      mailbox,
      spawnOnDemand: true,
    },
  };
}

describe('the inline actor host', () => {
  it('answers a request from the real system actor on the main thread', async () => {
    expect(system.supervisor.inline).toBe(true);
    const answer = await system.client({ kind: 'cli' }).request('system.ping', { echo: 'hello' });
    expect(answer.echo).toBe('hello');
    expect(answer.pid).toBe(process.pid);
    expect(answer.thread_id).toBe(0); // the main thread: no worker was started
  });

  it('is chosen by DROIDBUS_INLINE=1 and not otherwise', () => {
    expect(runtime.inlineRequested({ DROIDBUS_INLINE: '1' })).toBe(true);
    expect(runtime.inlineRequested({ DROIDBUS_INLINE: 'true' })).toBe(true);
    expect(runtime.inlineRequested({ DROIDBUS_INLINE: '0' })).toBe(false);
    expect(runtime.inlineRequested({})).toBe(false);
  });

  it('fails a request whose deadline passes with TIMEOUT naming the actor', async () => {
    const client = system.client({ kind: 'cli' });
    const err = await rejection(client.request('system.ping', { delay_ms: 10_000 }, { timeoutMs: 50 }));
    expect(err.code).toBe('TIMEOUT');
    expect(err.actor).toBe('system');
    expect(err.message).toContain('system.ping');
  });

  it('cancels a request when its signal aborts, and the actor lets go of it', async () => {
    const client = system.client({ kind: 'cli' });
    const controller = new AbortController();
    const pending = client.request('system.ping', { delay_ms: 10_000 }, { signal: controller.signal });
    setImmediate(() => controller.abort());
    const err = await rejection(pending);
    expect(err.code).toBe('CANCELLED');
    const deadline = Date.now() + 5_000;
    while ((system.bus.inflightByAddress()['system'] ?? 0) > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(system.bus.inflightByAddress()['system'] ?? 0).toBe(0);
  });

  it('checks payloads against the contract and answers INVALID', async () => {
    const err = await rejection(system.client({ kind: 'cli' }).request('system.ping', { delay_ms: -5 }));
    expect(err.code).toBe('INVALID');
    expect(err.message).toContain('delay_ms');
  });

  it('fails a request in flight on a terminated host with CRASHED naming the actor, and the next one succeeds', async () => {
    const client = system.client({ kind: 'cli' });
    await client.request('system.ping', {});
    const inFlight = client.request('system.ping', { delay_ms: 10_000 });
    await new Promise((r) => setTimeout(r, 20));
    await system.supervisor.crashWorkerOf('system');
    const err = await rejection(inFlight);
    expect(err.code).toBe('CRASHED');
    expect(err.actor).toBe('system');
    expect(err.message).toContain('the system actor crashed while handling system.ping');
    const after = await client.request('system.ping', { echo: 'again' });
    expect(after.echo).toBe('again');
  });

  it('answers BUSY at once when an actor has as many requests as its mailbox holds', async () => {
    const small = runtime.startActorSystem({
      inline: true,
      kinds: {
        system: {
          module: new URL('../../dist/actors/system/system-actor.js', import.meta.url),
          group: 'main',
          mailbox: 2,
          spawnOnDemand: true,
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
      expect(Date.now() - started).toBeLessThan(5_000);
      controller.abort();
      await Promise.all(held);
    } finally {
      await small.shutdown();
    }
  });

  it('runs pool tasks on the main thread too', async () => {
    const probe = runtime.startActorSystem({ inline: true, kinds: fixtureKind('pool-probe-actor.mjs') });
    try {
      const answer = await probe.client({ kind: 'cli' }).request('system.ping', {});
      expect(answer.thread_id).toBe(0);
      expect(answer.echo).toBe('0');
    } finally {
      await probe.shutdown();
    }
  });
});

describe.each([
  ['worker threads', false],
  ['the inline host', true],
])('lanes and concurrency on %s', (_label, inline) => {
  it('never overlaps requests of one lane, and runs others up to the concurrency', async () => {
    const probe = runtime.startActorSystem({ inline, kinds: fixtureKind('lane-probe-actor.mjs') });
    try {
      const client = probe.client({ kind: 'cli' });
      const pings = await Promise.all([1, 2, 3].map(() => client.request('system.ping', { delay_ms: 40 })));
      expect(pings.map((p) => p.echo)).toEqual(['1', '1', '1']);
      expect(pings[0]!.thread_id === 0).toBe(inline);
      const checks = await Promise.all(
        [1, 2, 3].map(() => client.request('system.health', { project_root: null, trusted: false })),
      );
      const most = Math.max(...checks.map((c) => (c as unknown as { most_at_once: number }).most_at_once));
      expect(most).toBe(3);
    } finally {
      await probe.shutdown();
    }
  });
});
