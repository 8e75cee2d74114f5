/**
 * ANR thread dumps read from real pastes (tests/fixtures/anr/SOURCES.md) and from the dropbox
 * framing AOSP prints: the main thread's state and frames, the monitor it waits for and its holder.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { anrStacks, parseDropboxAnrs, parseDumps, parseThreads } from './anr-trace.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../../tests/fixtures/anr/${name}`, import.meta.url), 'utf8');

describe('ART thread dumps', () => {
  it('reads a blocked main thread: state, frames, the monitor it waits for and who holds it', () => {
    const [main] = parseThreads(fixture('oksocket-147-main-blocked.txt'));
    expect(main).toMatchObject({ name: 'main', tid: 1, state: 'Blocked' });
    expect(main!.frames[0]).toBe('z.coz.a(ConnectionManagerImpl.java:232)');
    expect(main!.frames).toHaveLength(12);
    expect(main!.waiting_to_lock).toEqual({ monitor: '0x03fcc6c8', of: 'z.coz', held_by: 26 });
    expect(main!.locked).toEqual(['0x0de1c361']);
  });

  it("reads the Play Console's form the same way (a space before the parenthesis, lock lines flush left)", () => {
    const [main] = parseThreads(fixture('appcenter-975-play-console.txt'));
    expect(main!.frames[0]).toBe(
      'com.microsoft.appcenter.utils.NetworkStateHelper.a(NetworkStateHelper.java)',
    );
    expect(main!.frames[1]).toBe(
      'com.microsoft.appcenter.http.HttpClientNetworkStateHandler.callAsync(HttpClientNetworkStateHandler.java:43)',
    );
    expect(main!.waiting_to_lock).toEqual({ monitor: '0x095ef410', of: 'o.aqu', held_by: 16 });
    expect(main!.locked).toEqual(['0x018348ba', '0x002afb09']);
  });

  it('reads a main thread in native code, its Java frames after the native ones', () => {
    const [main] = parseThreads(fixture('firebase-594-main-native.txt'));
    expect(main).toMatchObject({ state: 'Native', waiting_to_lock: null });
    expect(main!.frames[0]).toBe('android.os.MessageQueue.nativePollOnce(Native method)');
  });

  it('finds the holder in a whole dump inside dropbox framing, and names a deadlock as one', () => {
    const worker = [
      '"DiskWriter" prio=5 tid=26 Blocked',
      '  | group="main" sCount=1 dsCount=0 flags=1 obj=0x12c40000 self=0x7b00000000',
      '  at z.cpe.c(ActionHandler.java:88)',
      '  - waiting to lock <0x0de1c361> (a java.util.ArrayList) held by thread 1',
      '  at z.cpe.d(ActionHandler.java:90)',
      '  - locked <0x03fcc6c8> (a z.coz)',
      '  at java.lang.Thread.run(Thread.java:919)',
    ].join('\n');
    const body = [
      'Process: com.example.app',
      'PID: 20267',
      'Subject: Input dispatching timed out (Waiting to send non-key event)',
      '',
      'CPU usage from 0ms to 5000ms later:',
      '',
      '----- pid 20267 at 2019-11-03 10:00:00 -----',
      'Cmd line: com.example.app',
      '',
      fixture('oksocket-147-main-blocked.txt').trimEnd(),
      '',
      worker,
      '',
      '----- end 20267 -----',
    ].join('\n');
    const printed = `Drop box contents: 1 entries\nMax entries: 1000\n\n========================================\n2019-11-03 10:00:05 data_app_anr (text, ${body.length} bytes)\n${body}\n\n`;
    const [entry] = parseDropboxAnrs(printed);
    expect(entry).toMatchObject({
      tag: 'data_app_anr',
      time: '2019-11-03 10:00:05',
      process: 'com.example.app',
      pid: 20267,
      subject: 'Input dispatching timed out (Waiting to send non-key event)',
    });
    expect(entry!.dumps).toHaveLength(1);
    const stacks = anrStacks(entry!.dumps[0]!);
    expect(stacks?.holder?.name).toBe('DiskWriter');
    expect(stacks?.holder?.frames[0]).toBe('z.cpe.c(ActionHandler.java:88)');
    expect(stacks?.deadlock).toBe(true);
    // Without the holder's own wait, the same dump is a main thread blocked, not a deadlock.
    const plain = parseDumps(body.replace(/  - waiting to lock <0x0de1c361>.*\n/, ''));
    expect(anrStacks(plain[0]!)?.deadlock).toBe(false);
  });

  it('finds the holder in a real two-thread paste ("held by thread 15 (tid=15)")', () => {
    const [dump] = parseDumps(fixture('envayasms-39-deadlock.txt'));
    const stacks = anrStacks(dump!);
    expect(stacks?.main.frames).toEqual(['org.envaya.sms.Inbox.messageFailed(Inbox.java:97)']);
    expect(stacks?.main.waiting_to_lock).toEqual({
      monitor: '0x3c999acf',
      of: 'org.envaya.sms.Inbox',
      held_by: 15,
    });
    expect(stacks?.holder).toMatchObject({
      name: 'IntentService[CheckMessagingService]',
      tid: 15,
      state: 'Blocked',
      frames: [],
    });
  });
});
