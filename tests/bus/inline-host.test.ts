import { beforeAll, describe, expect, it } from 'vitest';
import type * as Runtime from '../../src/actors/runtime.js';
import type { KindConfig } from '../../src/actors/kinds.js';
import { fromDist } from '../helpers/paths.js';

/**
 * The inline host (DROIDBUS_INLINE=1, `droidbus mcp --inline`) runs the same actor modules on the
 * main thread. actor-runtime.test.ts holds it to the worker runtime's rules (deadlines,
 * cancellation, BUSY, payload checks, CRASHED); these are what is its own: how it is chosen, pool
 * tasks on the main thread, lanes and concurrency on both.
 */

let runtime: typeof Runtime;

beforeAll(async () => {
  runtime = await fromDist<typeof Runtime>('actors/runtime.ts');
});

function fixtureKind(name: string, mailbox = 16): Record<string, KindConfig> {
  return {
    system: {
      module: new URL(`../fixtures/actors/${name}`, import.meta.url),
      group: 'main',
      mailbox,
    },
  };
}

describe('the inline actor host', () => {
  it('is chosen by DROIDBUS_INLINE=1 and not otherwise', () => {
    expect(runtime.inlineRequested({ DROIDBUS_INLINE: '1' })).toBe(true);
    expect(runtime.inlineRequested({ DROIDBUS_INLINE: 'true' })).toBe(true);
    expect(runtime.inlineRequested({ DROIDBUS_INLINE: '0' })).toBe(false);
    expect(runtime.inlineRequested({})).toBe(false);
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
        [1, 2, 3].map(() => client.request('system.health', { project_root: null })),
      );
      const most = Math.max(...checks.map((c) => (c as unknown as { most_at_once: number }).most_at_once));
      expect(most).toBe(3);
    } finally {
      await probe.shutdown();
    }
  });
});
