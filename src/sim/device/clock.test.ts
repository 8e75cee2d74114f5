/**
 * One clock per simulated device (issue 57): /proc/uptime, toybox's `uptime`, dumpsys meminfo's
 * `Uptime:` and gfxinfo all read the device's time since boot, so they agree with each other and
 * advance together.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SimDevice } from '../device-api.js';
import { runOn } from './collect-io.js';
import { createSimDevice } from '../control/index.js';
import { testIdentity } from '../../../tests/helpers/sim-identity.js';

let dev: SimDevice;
afterEach(() => dev?.close());

const identity = testIdentity(7011);

async function procUptimeMs(d: SimDevice): Promise<number> {
  const [up, idle] = (await runOn(d, 'cat /proc/uptime')).stdout.trim().split(' ').map(Number);
  expect(idle).toBeGreaterThan(up!);
  return up! * 1000;
}

describe('the device clock', () => {
  it('is the same in /proc/uptime, uptime and dumpsys meminfo, and it runs', async () => {
    dev = createSimDevice({ identity, logcatRate: 0 });
    const first = await procUptimeMs(dev);
    // The device booted an hour before it appeared.
    expect(first).toBeGreaterThanOrEqual(3_600_000);
    expect(first).toBeLessThan(3_660_000);
    expect((await runOn(dev, 'uptime')).stdout).toMatch(
      /^ \d\d:\d\d:\d\d up {2}1:00, {2}0 users, {2}load average: /,
    );
    const meminfo = Number(
      /^Uptime: (\d+) Realtime: \1$/m.exec((await runOn(dev, 'dumpsys meminfo')).stdout)?.[1],
    );
    expect(Math.abs(meminfo - first)).toBeLessThan(1_000);
    const later = await (async () => {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const t = await procUptimeMs(dev);
        if (t > first || Date.now() > deadline) {
          return t;
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    expect(later).toBeGreaterThan(first);
  });
});
