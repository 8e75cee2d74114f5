/**
 * An ANR leaves what a phone leaves: the dropbox entry ActivityManagerService writes (headers, the
 * report, ART's thread dump) printed as `dumpsys dropbox --print data_app_anr` prints it — read
 * back here by droidbus's own reader, as the logcat actor reads a real one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { anrStacks, parseDropboxAnrs } from '../../actors/logcat/anr-trace.js';
import { SAMPLE_ANR_HOLDER_TID } from '../sample-app.js';
import type { SimDevice } from '../device-api.js';
import { runOn } from './collect-io.js';
import { createSimDevice } from '../control/index.js';
import { testIdentity } from '../../../tests/helpers/sim-identity.js';
import { realAnrLog, realAnrTraces } from '../../../tests/helpers/real-anr.js';

let dev: SimDevice | undefined;
afterEach(() => dev?.close());

describe('dumpsys dropbox', () => {
  it('prints nothing found before an ANR, then the ANR with the main thread blocked on the sync thread', async () => {
    dev = createSimDevice({ identity: testIdentity(7011), logcatRate: 0, dumpLatencyMs: 5 });
    expect((await runOn(dev, 'dumpsys dropbox --print data_app_anr')).stdout).toContain(
      '(No entries found.)',
    );
    await runOn(dev, 'am start -n com.droidbus.sample/.HomeActivity');
    const pid = Number((await runOn(dev, 'pidof com.droidbus.sample')).stdout.trim());
    await runOn(dev, 'sim crash com.droidbus.sample anr');
    const printed = (await runOn(dev, 'dumpsys dropbox --print data_app_anr')).stdout;
    const [entry, ...more] = parseDropboxAnrs(printed);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ tag: 'data_app_anr', process: 'com.droidbus.sample', pid });
    expect(entry!.subject).toMatch(/^Input dispatching timed out/);
    expect(entry!.dumps.map((d) => d.pid)).toEqual([pid]);
    const stacks = anrStacks(entry!.dumps[0]!);
    expect(stacks?.main).toMatchObject({ state: 'Blocked' });
    expect(stacks?.main.waiting_to_lock?.held_by).toBe(SAMPLE_ANR_HOLDER_TID);
    expect(stacks?.holder).toMatchObject({ name: 'CartSync', state: 'Sleeping' });
    expect(stacks?.deadlock).toBe(false);
    // Without --print, one line an entry, as the service lists them.
    expect((await runOn(dev, 'dumpsys dropbox data_app_anr')).stdout).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d data_app_anr \(text, \d+ bytes\)$/m,
    );
  });
});

describe('a real ANR replayed', () => {
  it('leaves its report in the dropbox with the thread dump replayed before it (issue 69)', async () => {
    dev = createSimDevice({ identity: testIdentity(7012), logcatRate: 0, dumpLatencyMs: 5 });
    // A real ART paste (OkSocket #147) framed as ART writes it, for a real ANR capture (Droid-ify #1135).
    const traces = realAnrTraces('oksocket-147-main-blocked.txt');
    const fs = dev.fs;
    fs.write('/data/local/tmp/traces.txt', new TextEncoder().encode(traces), 0o100644, 0);
    expect((await runOn(dev, 'sim logcat replay /data/local/tmp/traces.txt')).stdout).toContain(
      'kept as /data/anr/',
    );
    const log = realAnrLog();
    fs.write('/data/local/tmp/anr.txt', new TextEncoder().encode(log), 0o100644, 0);
    expect((await runOn(dev, 'sim logcat replay /data/local/tmp/anr.txt')).stdout).toContain(
      '(1 ANR report kept in the dropbox)',
    );
    const all =
      (await runOn(dev, 'dumpsys dropbox --print data_app_anr')).stdout +
      (await runOn(dev, 'dumpsys dropbox --print system_app_anr')).stdout;
    const [entry] = parseDropboxAnrs(all);
    expect(entry).toMatchObject({ process: 'com.looker.droidify', pid: 17681 });
    expect(entry!.subject).toMatch(/^Input dispatching timed out \(61a981d/);
    const stacks = anrStacks(entry!.dumps[0]!);
    expect(stacks?.main.frames[0]).toBe('z.coz.a(ConnectionManagerImpl.java:232)');
    expect(stacks?.main.waiting_to_lock?.held_by).toBe(26);
    // The paste ends with the main thread: the holder's own stack is not in it.
    expect(stacks?.holder).toBeNull();
    // And the exit it ended in, as exit-info records it.
    const exits = (await runOn(dev, 'dumpsys activity exit-info com.looker.droidify')).stdout;
    expect(exits).toMatch(/pid=17681[\s\S]*reason=6 \(ANR\)/);
  });
});
