/**
 * Logcat, crashes and app state end to end: the built `droidbus mcp` (SDK client over stdio) with
 * its logcat actor streaming from `droidbus sim` devices through a private real adb server. Crashes
 * are injected on the devices (`sim crash`), real captured logs replayed (`sim logcat replay`), and
 * a device is disconnected mid-stream.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExitRecordWire } from '../../src/bus/messages/app.js';
import type { CrashGroupWire, CrashWire, StreamInfo } from '../../src/bus/messages/logcat.js';
import type { EntryOutput } from '../../src/mcp/tools/logcat.js';
import { writeSampleProject, SAMPLE_PACKAGE } from '../../src/sim/index.js';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { EVERY_TOOLSET, startMcp, type McpSessionHandle } from '../helpers/mcp-client.js';
import { ROOT, tempDir } from '../helpers/paths.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';
import { replayRealAnr } from '../helpers/real-anr.js';
import { refusedWith } from '../helpers/tool-errors.js';
import { lastRead } from '../helpers/until.js';

const home = tempDir('droidbus-logcat-home-');
const project = tempDir('droidbus-logcat-project-');
let server: AdbServer;
let farm: SimFarm;
let session: McpSessionHandle;
/** The device most tests use, and a second one that is disconnected at the end. */
let a: string;
let b: string;

interface ToolAnswer<T> {
  isError?: boolean;
  text: string;
  data: T;
}

async function call<T = Record<string, unknown>>(
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolAnswer<T>> {
  const r = (await session.client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: unknown;
    content: { type: string; text?: string }[];
  };
  const text = r.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
  return { ...(r.isError ? { isError: true } : {}), text, data: r.structuredContent as T };
}

async function ok<T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const r = await call<T>(name, args);
  expect(r.isError, `${name} failed: ${r.text}`).toBeFalsy();
  return r.data;
}

function invalidParams(name: string, args: Record<string, unknown>): Promise<string> {
  return refusedWith(session.client.callTool({ name, arguments: args }));
}

/** Calls `read` until `done` holds for its value, or fails after `ms`. */
async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (v: T) => boolean,
  ms = 20_000,
): Promise<T> {
  const last = await lastRead(read, done, ms, 150);
  if (!done(last)) {
    throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last).slice(0, 2000)}`);
  }
  return last;
}

async function deviceShell(serial: string, command: string): Promise<string> {
  const r = await server.adb(['-s', serial, 'shell', command]);
  expect(r.code, `${command}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

interface Crashes {
  crashes: CrashWire[];
  groups: CrashGroupWire[];
  total: number;
}

const crashesOf = (args: Record<string, unknown>) => () => ok<Crashes>('get_crash_logs', args);
const entriesOf = (args: Record<string, unknown>) =>
  ok<{ entries: EntryOutput[] }>('get_logcat_entries', args);
const stats = () =>
  ok<{ streams: StreamInfo[]; live_streams: number; tick_timer: boolean; groups: number }>(
    'get_logcat_stats',
  );

beforeAll(async () => {
  await writeSampleProject(project.dir);
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 2 });
  a = farm.devices[0]!.serial;
  b = farm.devices[1]!.serial;
  session = await startMcp([...EVERY_TOOLSET, '--project', project.dir], {
    env: { ANDROID_ADB_SERVER_PORT: String(server.port), DROIDBUS_HOME: home.dir },
  });
  await session.client.listTools(); // lets the client check structured results against output schemas
}, 120_000);

afterAll(async () => {
  await session?.close();
  await farm?.stop();
  await server?.stop();
  home.remove();
  project.remove();
});

describe('start_logcat', () => {
  it('refuses to guess the device when several are online', async () => {
    const message = await invalidParams('start_logcat', {});
    expect(message).toContain('Several devices are online');
  });

  it('streams a device, seeding its processes from ps, and says so in the stats', async () => {
    const started = await ok<{ already_streaming: boolean; stream: StreamInfo }>('start_logcat', {
      device_serial: a,
    });
    expect(started.already_streaming).toBe(false);
    expect(started.stream.state).toBe('streaming');
    expect(started.stream.known_pids).toBeGreaterThan(5);
    const again = await ok<{ already_streaming: boolean }>('start_logcat', { device_serial: a });
    expect(again.already_streaming).toBe(true);
    const s = await until(
      'lines from the device',
      stats,
      (v) => (v.streams.find((t) => t.serial === a)?.lines ?? 0) > 0,
    );
    expect(s.streams.find((t) => t.serial === a)?.state).toBe('streaming');
    expect(s.live_streams).toBe(1);
    expect(s.tick_timer).toBe(true);
  });

  it('fails with a tool error for a device adb does not know', async () => {
    const r = await call('start_logcat', { device_serial: '127.0.0.1:1' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/not connected|list_devices/);
  });
});

describe('crashes', () => {
  it('reads an injected Java crash with its whole stack and Caused by: chain, and a second joins its group', async () => {
    await ok('clear_logcat');
    await deviceShell(a, `sim crash ${SAMPLE_PACKAGE} java`);
    const first = await until('the crash', crashesOf({ package: SAMPLE_PACKAGE }), (v) => v.total === 1);
    const crash = first.crashes[0]!;
    expect(crash).toMatchObject({
      kind: 'java',
      device: a,
      package: SAMPLE_PACKAGE,
      exception: 'java.lang.IllegalStateException',
      message: 'Could not compute the cart total for demo',
    });
    expect(crash.group_id).toMatch(/^[0-9a-f]{12}$/);
    expect(crash.trace).toContain('FATAL EXCEPTION: main');
    expect(crash.trace).toContain('Caused by: a.d: No price for sku DEMO-42');
    expect(crash.trace).toContain('... 14 more');
    expect(crash.frames[1]).toMatch(/^com\.droidbus\.sample\.HomeActivity\.q\(/);
    expect(crash.causes).toHaveLength(1);
    expect(crash.causes[0]).toMatchObject({
      exception: 'a.d',
      message: 'No price for sku DEMO-42',
      more: 14,
    });
    expect(first.groups).toHaveLength(1);
    expect(first.groups[0]!.count).toBe(1);

    await deviceShell(a, `sim crash ${SAMPLE_PACKAGE} java`);
    const second = await until(
      'the second crash',
      crashesOf({ package: SAMPLE_PACKAGE }),
      (v) => v.total === 2,
    );
    expect(second.crashes.map((c) => c.group_id)).toEqual([crash.group_id, crash.group_id]);
    expect(second.groups).toEqual([expect.objectContaining({ id: crash.group_id, count: 2 })]);

    const trace = await call<{ crash: CrashWire; group: CrashGroupWire }>('get_crash_stack_trace', {
      crash_group_id: crash.group_id,
    });
    expect(trace.isError).toBeFalsy();
    expect(trace.data.group.count).toBe(2);
    expect(trace.text).toContain('Caused by: a.d: No price for sku DEMO-42');
    expect(trace.text).toContain('\tat com.droidbus.sample.HomeActivity.q(');
  });

  it('files thirty identical crashes under one group with count 30', async () => {
    await ok('clear_logcat');
    const commands = Array.from({ length: 30 }, () => `sim crash ${SAMPLE_PACKAGE} java`).join('; ');
    await deviceShell(a, commands);
    const all = await until(
      'thirty crashes',
      crashesOf({ package: SAMPLE_PACKAGE, count: 50 }),
      (v) => v.total === 30,
    );
    expect(all.groups).toHaveLength(1);
    expect(all.groups[0]!.count).toBe(30);
    expect(new Set(all.crashes.map((c) => c.group_id)).size).toBe(1);
  });

  it('recognises an ANR and a native crash', async () => {
    await ok('clear_logcat');
    await deviceShell(a, `sim crash ${SAMPLE_PACKAGE} anr; sim crash ${SAMPLE_PACKAGE} native`);
    const found = await until('an ANR and a native crash', crashesOf({}), (v) => {
      const kinds = v.crashes.map((c) => c.kind);
      return kinds.includes('anr') && kinds.includes('native');
    });
    const anr = found.crashes.find((c) => c.kind === 'anr')!;
    expect(anr.package).toBe(SAMPLE_PACKAGE);
    expect(anr.message).toBeTruthy();
    expect(anr.trace).toContain(`ANR in ${SAMPLE_PACKAGE}`);
    const native = found.crashes.find((c) => c.kind === 'native')!;
    expect(native.package).toBe(SAMPLE_PACKAGE);
    expect(native.signal).toMatch(/^SIG[A-Z]+$/);
    expect(native.frames.some((f) => f.includes('libsample-native.so'))).toBe(true);
    expect(native.trace).toContain('*** *** ***');
  });

  it('answers get_crash_stack_trace for an unknown group with a tool error, and a bad id with invalid_params', async () => {
    const r = await call('get_crash_stack_trace', { crash_group_id: '0123456789ab' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('get_crash_logs');
    await invalidParams('get_crash_stack_trace', { crash_group_id: 'nope' });
  });
});

describe('get_logcat_entries filters', () => {
  beforeAll(async () => {
    await ok('clear_logcat');
    await deviceShell(a, `monkey -p ${SAMPLE_PACKAGE} 1`);
    await deviceShell(a, 'sim log W DroidbusProbe probe-from-the-sample-app');
    await deviceShell(a, 'sim log I DroidbusOther other-line');
    await deviceShell(a, `sim crash ${SAMPLE_PACKAGE} java`);
    await until('the crash', crashesOf({ package: SAMPLE_PACKAGE }), (v) => v.total === 1);
    await until(
      'the probe lines',
      () => entriesOf({ tag: 'DroidbusOther' }),
      (v) => v.entries.length === 1,
    );
  });

  it('only_crashes returns only crash lines', async () => {
    const { entries } = await entriesOf({ only_crashes: true, count: 10_000 });
    expect(entries.length).toBeGreaterThanOrEqual(10);
    expect(entries.every((e) => e.crash !== undefined)).toBe(true);
    expect(entries.some((e) => e.message.startsWith('Caused by:'))).toBe(true);
  });

  it('min_level keeps that level and above', async () => {
    const { entries } = await entriesOf({ min_level: 'error', count: 10_000 });
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.level === 'E' || e.level === 'F')).toBe(true);
    const warn = await entriesOf({ min_level: 'W', count: 10_000 });
    expect(warn.entries.some((e) => e.tag === 'DroidbusProbe')).toBe(true);
  });

  it('query package:mine is the open project’s packages', async () => {
    const { entries } = await entriesOf({ query: 'package:mine', count: 10_000 });
    expect(entries.some((e) => e.tag === 'DroidbusProbe' && e.package === SAMPLE_PACKAGE)).toBe(true);
    for (const e of entries) {
      expect(
        e.package === SAMPLE_PACKAGE || (['E', 'F'].includes(e.level) && e.message.includes(SAMPLE_PACKAGE)),
      ).toBe(true);
    }
    const errors = await entriesOf({ query: 'package:mine level:error is:crash', count: 10_000 });
    expect(errors.entries.length).toBeGreaterThan(0);
    expect(errors.entries.every((e) => e.crash !== undefined)).toBe(true);
  });

  it('query tag: and -tag: include and exclude tags', async () => {
    const only = await entriesOf({ query: 'tag:DroidbusProbe' });
    expect(only.entries.map((e) => e.message)).toEqual(['probe-from-the-sample-app']);
    const both = await entriesOf({ query: 'tag:DroidbusProbe tag:DroidbusOther' });
    expect(both.entries.map((e) => e.tag).sort()).toEqual(['DroidbusOther', 'DroidbusProbe']);
    const excluded = await entriesOf({ query: '-tag:AndroidRuntime is:crash', count: 10_000 });
    expect(excluded.entries.every((e) => e.tag !== 'AndroidRuntime')).toBe(true);
    const crashLines = await entriesOf({ only_crashes: true, count: 10_000 });
    expect(crashLines.entries.some((e) => e.tag === 'AndroidRuntime')).toBe(true);
    const phrase = await entriesOf({ query: 'message:"from the sample"' });
    expect(phrase.entries).toHaveLength(0);
    const quoted = await entriesOf({ query: 'message:"probe-from-the"' });
    expect(quoted.entries.map((e) => e.tag)).toEqual(['DroidbusProbe']);
  });

  it('tag, text, package and device_serial filter exactly', async () => {
    const byText = await entriesOf({ text: 'PROBE-FROM' });
    expect(byText.entries.map((e) => e.tag)).toEqual(['DroidbusProbe']);
    const byPackage = await entriesOf({ package: SAMPLE_PACKAGE, count: 10_000 });
    expect(byPackage.entries.every((e) => e.package === SAMPLE_PACKAGE)).toBe(true);
    const otherDevice = await entriesOf({ device_serial: b });
    expect(otherDevice.entries).toHaveLength(0);
    const some = await entriesOf({ count: 3 });
    expect(some.entries).toHaveLength(3);
    expect(some.entries[0]!.seq).toBeLessThan(some.entries[2]!.seq);
    const back = await ok<{ entries: EntryOutput[] }>('get_logcat_entries', {
      count: 3,
      before_seq: some.entries[0]!.seq,
    });
    expect(back.entries).toHaveLength(3);
    expect(back.entries.map((e) => e.seq)).toEqual([...back.entries.map((e) => e.seq)].sort((x, y) => x - y));
    expect(back.entries[2]!.seq).toBeLessThan(some.entries[0]!.seq);
  });

  it('keeps get_crash_logs within its budget: the newest crashes that fit, saying how to read the rest', async () => {
    for (let i = 0; i < 25; i++) {
      await deviceShell(a, `sim crash ${SAMPLE_PACKAGE} ${i % 3 === 0 ? 'native' : 'java'}`);
    }
    await until('the crashes', crashesOf({ package: SAMPLE_PACKAGE, count: 200 }), (v) => v.total >= 26);
    const { text, data } = await call<Crashes & { cut_for_size: number }>('get_crash_logs', {
      package: SAMPLE_PACKAGE,
      count: 200,
    });
    expect(text.length).toBeLessThanOrEqual(40_000);
    expect(text).not.toContain('[cut here');
    expect(JSON.stringify(data).length).toBeLessThanOrEqual(40_000);
    expect(data.crashes.length).toBeGreaterThan(0);
    // 26 whole traces with their parsed frames are more than 40,000 characters.
    expect(data.crashes.length).toBeLessThan(data.total);
    expect(data.cut_for_size).toBe(data.total - data.crashes.length);
    expect(text).toContain('more left out to keep the answer within 40,000 characters: before_seq: ');
    // Every group is in the answer: a line each first, and each group's newest crash in full,
    // however many repeats another group has.
    const groups = [...new Set(data.crashes.map((c) => (c as { group_id: string }).group_id))];
    expect(groups).toHaveLength(2);
    for (const g of groups) {
      expect(text).toMatch(new RegExp(`^group ${g}: \\[(java|native)\\] .* — \\d+×`, 'm'));
    }
  });

  it('keeps an answer within its budget and says how to page back', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `budget-line-${i}-${'x'.repeat(3000)}`);
    for (const l of lines) {
      await deviceShell(a, `sim log I DroidbusBudget ${l}`);
    }
    await until(
      'the long lines',
      () => entriesOf({ tag: 'DroidbusBudget', count: 100 }),
      (v) => v.entries.length === 40,
    );
    const { text, data } = await call<{ entries: EntryOutput[] }>('get_logcat_entries', {
      tag: 'DroidbusBudget',
    });
    const kept = data.entries;
    expect(text.length).toBeLessThanOrEqual(40_000);
    expect(JSON.stringify(data).length).toBeLessThanOrEqual(44_000);
    expect(kept.length).toBeLessThan(40);
    expect(kept.at(-1)!.message).toBe(lines[39]);
    expect(text).toContain(
      `older matches left out to keep the answer within 40,000 characters: before_seq: ${kept[0]!.seq}`,
    );
    expect(kept[0]!).not.toHaveProperty('crash');
    const asked = await call<{ entries: EntryOutput[] }>('get_logcat_entries', {
      tag: 'DroidbusBudget',
      count: 40,
    });
    expect(asked.data.entries).toHaveLength(40);
    expect(asked.text.length).toBeGreaterThan(100_000);
    expect(asked.text).not.toContain('[cut here');
  });

  it('refuses out-of-range counts, bad levels and invalid queries with invalid_params', async () => {
    await invalidParams('get_logcat_entries', { count: 0 });
    await invalidParams('get_logcat_entries', { count: 10_001 });
    await invalidParams('get_logcat_entries', { min_level: 'loud' });
    expect(await invalidParams('get_logcat_entries', { query: '(tag:Foo' })).toMatch(/parenthes/);
    expect(await invalidParams('get_logcat_entries', { query: 'tag~:[' })).toMatch(/regular expression/);
    expect(await invalidParams('get_logcat_entries', { query: 'level:nope' })).toMatch(/level/);
    await invalidParams('get_crash_logs', { count: 0 });
    await invalidParams('get_crash_logs', { count: 201 });
    await invalidParams('get_exit_reasons', { device_serial: a, limit: 101 });
  });

  it('runs a regular expression that pins a backtracking engine in linear time, and the next call answers', async () => {
    await deviceShell(a, `sim log I DroidbusEvil ${'a'.repeat(39)}!`);
    await until(
      'the evil line',
      () => entriesOf({ tag: 'DroidbusEvil' }),
      (v) => v.entries.length === 1,
    );
    // `new RegExp('^(a|a)*$')` takes about 2^39 steps on that line: the worker would spin for good.
    const evil = await entriesOf({ query: 'message~:^(a|a)*$', count: 10_000 });
    expect(evil.entries).toEqual([]);
    const matching = await entriesOf({ query: 'tag:DroidbusEvil message~:^(a|a)*!$' });
    expect(matching.entries).toHaveLength(1);
    expect((await entriesOf({ tag: 'DroidbusOther' })).entries).toHaveLength(1);
    expect(await invalidParams('get_logcat_entries', { query: 'message~:(?<=id=)\\d+' })).toMatch(
      /lookahead and lookbehind are not supported/,
    );
  });
});

describe('a real recorded log replayed on the device', () => {
  it('yields the Java crash and the native crash it contains', async () => {
    await ok('clear_logcat');
    const local = path.join(ROOT, 'tests', 'fixtures', 'logcat', 'threadtime-kivy-crash.txt');
    const pushed = await server.adb(['-s', a, 'push', local, '/data/local/tmp/kivy.txt']);
    expect(pushed.code, pushed.stderr).toBe(0);
    await deviceShell(a, 'sim logcat replay /data/local/tmp/kivy.txt');
    const found = await until('the replayed crashes', crashesOf({ device_serial: a }), (v) =>
      ['java', 'native'].every((k) => v.crashes.some((c) => c.kind === k)),
    );
    const java = found.crashes.find((c) => c.kind === 'java')!;
    expect(java).toMatchObject({
      package: 'com.google.android.googlequicksearchbox',
      process: 'com.google.android.googlequicksearchbox:search',
      exception: 'java.lang.IllegalStateException',
    });
    expect(java.frames).toHaveLength(8);
    expect(found.crashes.find((c) => c.kind === 'native')!.signal).toBe('SIGABRT');
  });

  it("gives a real ANR's main thread from the report the device kept (issue 69)", async () => {
    // A real two-thread ART paste (EnvayaSMS #39) for a real ANR capture (Droid-ify #1135).
    await replayRealAnr(server, a, project.dir, 'envayasms-39-deadlock.txt');
    const found = await until(
      'the replayed ANR with its threads',
      crashesOf({ package: 'com.looker.droidify' }),
      (v) => v.crashes.some((c) => c.kind === 'anr' && c.anr !== undefined),
    );
    const anr = found.crashes.find((c) => c.kind === 'anr')!;
    expect(anr.anr?.main).toMatchObject({ name: 'main', state: 'Blocked' });
    expect(anr.anr?.main.waiting_to_lock).toEqual({
      monitor: '0x3c999acf',
      of: 'org.envaya.sms.Inbox',
      held_by: 15,
    });
    expect(anr.anr?.holder).toMatchObject({
      name: 'IntentService[CheckMessagingService]',
      tid: 15,
      state: 'Blocked',
    });
    const { text } = await call<Crashes>('get_crash_logs', { package: 'com.looker.droidify' });
    expect(text).toContain(
      'Main thread Blocked at org.envaya.sms.Inbox.messageFailed(Inbox.java:97) — waiting for "IntentService[CheckMessagingService]" (tid 15, Blocked)',
    );
  });
});

describe('app state', () => {
  it('get_exit_reasons after a crash lists it, defaults to the project’s app, and points to the crash tools', async () => {
    await deviceShell(a, `sim crash ${SAMPLE_PACKAGE} java`);
    const r = await call<{
      package: string;
      supported: boolean;
      records: ExitRecordWire[];
      failures: number;
    }>('get_exit_reasons', { device_serial: a });
    expect(r.isError).toBeFalsy();
    expect(r.data.package).toBe(SAMPLE_PACKAGE);
    expect(r.data.supported).toBe(true);
    expect(r.data.records[0]!.reason).toBe('CRASH');
    expect(r.data.failures).toBeGreaterThan(0);
    expect(r.text).toContain('get_crash_logs');
    const one = await ok<{ records: ExitRecordWire[] }>('get_exit_reasons', { device_serial: a, limit: 1 });
    expect(one.records).toHaveLength(1);
  });

  it('dump_app_info reads the sample app’s package facts', async () => {
    const info = await ok<{
      package: string;
      version_name: string;
      version_code: number;
      target_sdk: number;
      user_id: number | null;
      enabled: boolean;
      permissions: { granted: string[]; denied: string[] };
    }>('dump_app_info', { device_serial: a, package: SAMPLE_PACKAGE });
    expect(info.package).toBe(SAMPLE_PACKAGE);
    // An app's uid: `userId=` before Android 16, `appId=` from it.
    expect(info.user_id).toBeGreaterThanOrEqual(10000);
    expect(info.version_name).toBeTruthy();
    expect(info.version_code).toBeGreaterThan(0);
    expect(info.target_sdk).toBeGreaterThan(20);
    expect(info.enabled).toBe(true);
    expect(info.permissions.granted.length + info.permissions.denied.length).toBeGreaterThan(0);
    const missing = await call('dump_app_info', { device_serial: a, package: 'com.example.not.installed' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('not installed');
  });

  it('get_memory_info and get_app_runtime_state describe the running sample app', async () => {
    await deviceShell(a, `monkey -p ${SAMPLE_PACKAGE} 1`);
    const mem = await ok<{ pid: number; total_pss_kb: number; java_heap: { pss_kb: number } }>(
      'get_memory_info',
      { device_serial: a, package: SAMPLE_PACKAGE },
    );
    expect(mem.pid).toBeGreaterThan(0);
    expect(mem.total_pss_kb).toBeGreaterThan(0);
    expect(mem.java_heap.pss_kb).toBeGreaterThan(0);
    const state = await ok<{
      installed: boolean;
      running: boolean;
      pids: number[];
      foreground: boolean;
      foreground_activity: string | null;
      memory: { total_pss_kb: number } | null;
      last_exit: ExitRecordWire | null;
      logcat_crashes: number;
    }>('get_app_runtime_state', { device_serial: a });
    expect(state.installed).toBe(true);
    expect(state.running).toBe(true);
    expect(state.pids).toContain(mem.pid);
    expect(state.foreground).toBe(true);
    expect(state.foreground_activity).toMatch(/^com\.droidbus\.sample\./);
    expect(state.memory?.total_pss_kb).toBeGreaterThan(0);
    expect(state.last_exit?.reason).toBe('CRASH');
    expect(state.logcat_crashes).toBeGreaterThan(0);

    await deviceShell(a, `am force-stop ${SAMPLE_PACKAGE}`);
    const stopped = await call('get_memory_info', { device_serial: a, package: SAMPLE_PACKAGE });
    expect(stopped.isError).toBe(true);
    expect(stopped.text).toContain('not running');
  });

  it('get_frame_stats measures one interaction: reset, three taps, read again', async () => {
    await deviceShell(a, `monkey -p ${SAMPLE_PACKAGE} 1`);
    type Stats = {
      reset: boolean;
      pid: number;
      blocks: { frames: number; janky_frames: number; reasons: Record<string, number> }[];
    };
    const before = await ok<Stats>('get_frame_stats', {
      device_serial: a,
      package: SAMPLE_PACKAGE,
      reset: true,
    });
    expect(before.reset).toBe(true);
    expect(before.pid).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) {
      await deviceShell(a, 'input tap 10 10');
    }
    const after = await ok<Stats>('get_frame_stats', { device_serial: a, package: SAMPLE_PACKAGE });
    // The sim's model: a tap draws 8 frames, one in ten of them a 24 ms slow UI-thread frame.
    expect(after.reset).toBe(false);
    expect(after.blocks[0]).toMatchObject({ frames: 24, janky_frames: 2 });
    expect(after.blocks[0]!.reasons).toMatchObject({ slow_ui_thread: 2, frame_deadline_missed: 2 });
    // Read without reset: the counters go on.
    await deviceShell(a, 'input tap 10 10');
    const more = await ok<Stats>('get_frame_stats', { device_serial: a, package: SAMPLE_PACKAGE });
    expect(more.blocks[0]!.frames).toBe(32);

    await deviceShell(a, `am force-stop ${SAMPLE_PACKAGE}`);
    const stopped = await call('get_frame_stats', { device_serial: a, package: SAMPLE_PACKAGE });
    expect(stopped.isError).toBe(true);
    expect(stopped.text).toContain('not running');
    expect(stopped.text).toContain('No process found for: com.droidbus.sample');
  });

  it('refuses a hostile package name before any device command, and nothing runs on the device', async () => {
    const hostile = 'com.x;touch /data/local/tmp/p';
    for (const tool of [
      'get_exit_reasons',
      'dump_app_info',
      'get_memory_info',
      'get_app_runtime_state',
      'get_frame_stats',
    ]) {
      expect(await invalidParams(tool, { device_serial: a, package: hostile })).toContain('package');
    }
    await invalidParams('get_logcat_entries', { package: hostile });
    await invalidParams('get_crash_logs', { package: hostile });
    const ls = await server.adb(['-s', a, 'shell', 'ls /data/local/tmp']);
    expect(ls.stdout.split(/\s+/)).not.toContain('p');
  });
});

describe('a session without a project', () => {
  it('asks for package instead of guessing the app, and refuses package:mine', async () => {
    const bare = tempDir('droidbus-logcat-no-project-');
    const other = await startMcp(EVERY_TOOLSET, {
      cwd: bare.dir,
      env: { ANDROID_ADB_SERVER_PORT: String(server.port), DROIDBUS_HOME: bare.dir },
    });
    try {
      const refused = (name: string, args: Record<string, unknown>): Promise<string> =>
        refusedWith(other.client.callTool({ name, arguments: args }));
      expect(await refused('get_exit_reasons', { device_serial: a })).toContain('pass package');
      expect(await refused('get_app_runtime_state', { device_serial: a })).toContain('pass package');
      expect(await refused('get_logcat_entries', { query: 'package:mine' })).toContain('package:mine');
      const named = (await other.client.callTool({
        name: 'get_exit_reasons',
        arguments: { device_serial: a, package: SAMPLE_PACKAGE },
      })) as { isError?: boolean; structuredContent?: { package: string } };
      expect(named.isError).toBeFalsy();
      expect(named.structuredContent?.package).toBe(SAMPLE_PACKAGE);
    } finally {
      await other.close();
      bare.remove();
    }
  });
});

describe('a second device', () => {
  it('from_now skips the lines its buffer already held', async () => {
    await deviceShell(b, 'sim log I DroidbusBefore before-the-start');
    const started = await ok<{ stream: StreamInfo }>('start_logcat', { device_serial: b, from_now: true });
    await deviceShell(b, 'sim log I DroidbusAfter after-the-start');
    await until(
      'the line logged after the start',
      () => entriesOf({ device_serial: b, tag: 'DroidbusAfter' }),
      (v) => v.entries.length === 1,
    );
    expect((await entriesOf({ device_serial: b, tag: 'DroidbusBefore' })).entries).toHaveLength(0);
    // The sim's clock is the host's: every line read was logged after the stream started.
    const read = await entriesOf({ device_serial: b, count: 10_000 });
    for (const e of read.entries) {
      expect(new Date(e.time.replace(' ', 'T')).getTime(), e.message).toBeGreaterThanOrEqual(
        started.stream.started_at - 1,
      );
    }
  });
});

describe('a device that disconnects mid-stream', () => {
  it('stops its stream with a clear state and leaves nothing running', async () => {
    await until('two live streams', stats, (v) => v.live_streams === 2);
    const disconnected = await server.adb(['disconnect', b]);
    expect(disconnected.code).toBe(0);
    const after = await until('the stream to stop', stats, (v) =>
      v.streams.some((t) => t.serial === b && t.state === 'stopped'),
    );
    const stream = after.streams.find((t) => t.serial === b)!;
    expect(stream.reason).toBe('device disconnected');
    expect(stream.stopped_at).not.toBeNull();
    expect(after.live_streams).toBe(1);
    expect(after.tick_timer).toBe(true);
    // The other device streams on.
    expect(after.streams.find((t) => t.serial === a)?.state).toBe('streaming');

    const stopped = await ok<{ stopped: StreamInfo[] }>('stop_logcat');
    expect(stopped.stopped.map((s) => s.serial)).toEqual([a]);
    const idle = await stats();
    expect(idle.live_streams).toBe(0);
    expect(idle.tick_timer).toBe(false);
    expect(idle.streams.find((t) => t.serial === a)?.reason).toBe('stopped by stop_logcat');
  });

  it('resumes the stream of a device that comes back; one stopped on request stays stopped', async () => {
    const connected = await server.adb(['connect', b]);
    expect(connected.stdout).toContain('connected');
    const back = await until('the stream of the device that came back', stats, (v) =>
      v.streams.some((t) => t.serial === b && t.state === 'streaming'),
    );
    expect(back.streams.find((t) => t.serial === a)?.state).toBe('stopped');
    expect(back.live_streams).toBe(1);
  });
});

// Last: it clears the store, which the tests above read from.
describe('crash groups across apps and devices', () => {
  it("names every group before any details: 25 crashes of one app never hide another app's one (issue 69)", async () => {
    await ok('clear_logcat');
    // From now: the devices' buffers still hold the crashes of the tests above.
    await ok('start_logcat', { device_serial: a, from_now: true });
    await ok('start_logcat', { device_serial: b, from_now: true });
    // The other app crashes first, on the other device; then 25 of the sample app.
    await deviceShell(b, 'sim crash com.android.settings java');
    await deviceShell(a, Array.from({ length: 25 }, () => `sim crash ${SAMPLE_PACKAGE} java`).join('; '));
    await until(
      '26 crashes',
      async () => {
        const v = await crashesOf({ count: 200 })();
        return { total: v.total, groups: v.groups.map((g) => `${g.packages.join()} ${g.count}`) };
      },
      (v) => v.total === 26,
    );
    const { text, data } = await call<Crashes>('get_crash_logs', {});
    expect(data.groups.map((g) => g.packages[0]).sort()).toEqual(
      ['com.android.settings', SAMPLE_PACKAGE].sort(),
    );
    const settings = data.groups.find((g) => g.packages.includes('com.android.settings'))!;
    expect(settings.devices).toEqual([b]);
    // The index first: one line per group, with its count, times and devices.
    const lines = text.split('\n');
    const firstTrace = lines.findIndex((l) => l.startsWith('[java]'));
    const index = lines.slice(0, firstTrace).filter((l) => l.startsWith('group '));
    expect(index).toHaveLength(2);
    expect(index.find((l) => l.includes(settings.id))).toMatch(/ — 1×, .* to .*, com\.android\.settings on /);
    expect(index.find((l) => !l.includes(settings.id))).toMatch(/ — 25×/);
    // The details: each group's newest crash before any repeat, so the other app's is among them.
    expect(
      data.crashes
        .slice(0, 2)
        .map((c) => c.package)
        .sort(),
    ).toEqual(['com.android.settings', SAMPLE_PACKAGE].sort());
    expect(text).toContain('of 26 crashes in 2 groups');
  });
});
