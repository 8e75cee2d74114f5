import { threadId } from 'node:worker_threads';
import { defineActor } from '../actor.js';
import { sleep } from '../../util/sleep.js';
import { runHealthCheck } from './health.js';

/** The system actor: liveness, and the health check (it spawns probes, so it stays off the JSON-RPC loop). */
export default defineActor({
  kind: 'system',
  concurrency: 8,
  start: () => ({}),
  handlers: {
    'system.ping': async (payload, _state, ctx) => {
      if (payload.delay_ms) {
        await sleep(payload.delay_ms, ctx.signal, true);
      }
      return {
        ...(payload.echo !== undefined ? { echo: payload.echo } : {}),
        pid: process.pid,
        thread_id: threadId,
      };
    },
    'system.health': async ({ project_root: root }, _state, ctx) => {
      const trusted =
        root !== null &&
        (await ctx.bus.request('project.describe', { root }, { signal: ctx.signal })).trusted;
      return runHealthCheck(root, trusted);
    },
  },
});
