import { describe, expect, it } from 'vitest';
import { SESSION_LIMITS } from '../../bus/messages/sessions.js';
import {
  ageSession,
  DEVICE_GONE_END_MS,
  STALE_END_MS,
  addCrash,
  appendEvent,
  effectiveState,
  IDLE_AFTER_MS,
  newSession,
  noteExitKey,
  setState,
  summarize,
  type NewCrash,
} from './session-model.js';
import { listSessions, sessionDetail } from './session-views.js';
import { attributeByDeviceApk, attributeByProcessStart } from './crash-attribution.js';

import { AGENT, install, T0 } from './test-fixtures.js';

function crash(key: string, over: Partial<NewCrash> = {}): NewCrash {
  return {
    kind: 'java',
    time: '2025-03-01 10:00:05.000',
    pid: 1234,
    group_id: '0123456789ab',
    summary: 'java.lang.IllegalStateException: boom',
    signature: 'sig',
    title: 'IllegalStateException at Foo.bar',
    attribution: { method: 'install_record', verified: true, reason: 'r' },
    lines: ['a', 'b', 'c'],
    lines_before: 2,
    truncated: false,
    key,
    ...over,
  };
}

describe('a debug session', () => {
  it('opens with its install as seq 1, naming who installed it and the build', () => {
    const s = newSession('ds-test01', install(), null, 'unattributed', T0);
    expect(s.events).toHaveLength(1);
    expect(s.events[0]).toMatchObject({ seq: 1, kind: 'install', by: AGENT });
    expect(s.events[0]!.summary).toContain('agent claude-code (session abcdef01, standalone)');
    expect(s.events[0]!.summary).toContain('unattributed');
    expect(summarize(s).build_label).toBe('unattributed');
    expect(
      summarize(newSession('ds-test02', install({ build_id: 'b1' }), null, 'no_build_record', T0))
        .build_label,
    ).toBe('no build record');
  });

  it('keeps at most 500 agent actions, dropping the oldest and counting them, without touching other events', () => {
    const s = newSession('ds-test01', install(), null, 'unattributed', T0);
    appendEvent(s, { kind: 'launch', by: AGENT, summary: 'launched' }, T0);
    for (let i = 0; i < SESSION_LIMITS.maxAgentEventsPerSession + 20; i++) {
      appendEvent(s, { kind: 'agent_action', by: AGENT, summary: `tap ${i}` }, T0 + i);
    }
    const agents = s.events.filter((e) => e.kind === 'agent_action');
    expect(agents).toHaveLength(SESSION_LIMITS.maxAgentEventsPerSession);
    expect(agents[0]!.summary).toBe('tap 20');
    expect(s.events.map((e) => e.kind).slice(0, 2)).toEqual(['install', 'launch']);
    expect(s.dropped_events).toBe(20);
    expect(s.counts.agent_actions).toBe(SESSION_LIMITS.maxAgentEventsPerSession + 20);
  });

  it('keeps the install when other events pass their bound', () => {
    const s = newSession('ds-test01', install(), null, 'unattributed', T0);
    for (let i = 0; i < SESSION_LIMITS.maxEventsPerSession + 5; i++) {
      appendEvent(s, { kind: 'launch', by: AGENT, summary: `launch ${i}` }, T0 + i);
    }
    expect(s.events).toHaveLength(SESSION_LIMITS.maxEventsPerSession);
    expect(s.events[0]!.kind).toBe('install');
    expect(s.events[1]!.summary).toBe('launch 6');
    expect(s.dropped_events).toBe(6);
    expect(s.counts.launches).toBe(SESSION_LIMITS.maxEventsPerSession + 5);
  });

  it('records a crash once per key, and keeps log lines only for the newest 20', () => {
    const s = newSession('ds-test01', install(), null, 'unattributed', T0);
    expect(addCrash(s, crash('k0'), T0)).toBe(true);
    expect(addCrash(s, crash('k0'), T0)).toBe(false);
    for (let i = 1; i <= SESSION_LIMITS.maxCrashCaptures + 3; i++) {
      addCrash(s, crash(`k${i}`, { kind: i % 2 ? 'anr' : 'java' }), T0 + i);
    }
    expect(s.crashes).toHaveLength(SESSION_LIMITS.maxCrashCaptures + 4);
    expect(s.crashes.filter((c) => c.lines.length > 0)).toHaveLength(SESSION_LIMITS.maxCrashCaptures);
    expect(s.crashes[0]!.lines).toEqual([]);
    expect(s.counts.crashes + s.counts.anrs).toBe(SESSION_LIMITS.maxCrashCaptures + 4);
    expect(s.events.filter((e) => e.kind === 'anr')).toHaveLength(12);
  });

  it('reads as idle after 12 hours without events, and an event makes an idle session open again', () => {
    const s = newSession('ds-test01', install(), null, 'unattributed', T0);
    expect(effectiveState(s, T0 + IDLE_AFTER_MS - 1)).toBe('open');
    expect(effectiveState(s, T0 + IDLE_AFTER_MS + 1)).toBe('idle');
    s.state = 'idle';
    appendEvent(s, { kind: 'launch', by: AGENT, summary: 'launched' }, T0 + IDLE_AFTER_MS + 2);
    expect(s.state).toBe('open');
    setState(s, 'superseded', 'a newer install', T0 + IDLE_AFTER_MS + 3);
    expect(effectiveState(s, T0 + 10 * IDLE_AFTER_MS)).toBe('superseded');
    expect(s.closed_at).not.toBeNull();
  });

  it('turns idle after 12 quiet hours, ends once its device has been gone a day or after 14 quiet days', () => {
    const s = newSession('ds-test01', install(), null, 'unattributed', T0);
    expect(ageSession(s, T0 + 1000)).toBe(false);
    expect(ageSession(s, T0 + IDLE_AFTER_MS + 1)).toBe(true);
    expect(s).toMatchObject({ state: 'idle', state_reason: 'no event for 12 hours', closed_at: null });
    expect(s.events).toHaveLength(1);
    expect(ageSession(s, T0 + STALE_END_MS)).toBe(true);
    expect(s.state).toBe('ended');
    expect(s.state_reason).toMatch(/^retention: no event for 14 days/);

    const gone = newSession('ds-test02', install(), null, 'unattributed', T0);
    gone.device_gone_since = new Date(T0).toISOString();
    appendEvent(gone, { kind: 'launch', by: AGENT, summary: 'x' }, T0 + DEVICE_GONE_END_MS - 10);
    expect(ageSession(gone, T0 + DEVICE_GONE_END_MS)).toBe(true);
    expect(gone.state).toBe('ended');
    expect(gone.state_reason).toMatch(/the device has been gone since/);
    expect(ageSession(gone, T0 + 2 * DEVICE_GONE_END_MS)).toBe(false);
  });

  it('adds each exit record once', () => {
    const s = newSession('ds-test01', install(), null, 'unattributed', T0);
    expect(noteExitKey(s, 'x')).toBe(true);
    expect(noteExitKey(s, 'x')).toBe(false);
  });
});

describe('reading sessions', () => {
  it('pages the timeline back with before_seq until next_before_seq is null', () => {
    const s = newSession('ds-test01', install(), null, 'unattributed', T0);
    for (let i = 0; i < 24; i++) {
      appendEvent(s, { kind: 'agent_action', by: AGENT, summary: `tap ${i}` }, T0 + i);
    }
    const seen: number[] = [];
    let before: number | undefined;
    for (let page = 0; page < 10; page++) {
      const r = sessionDetail(
        s,
        {
          session_id: s.id,
          max_events: 10,
          log_lines: 100,
          ...(before !== undefined ? { before_seq: before } : {}),
        },
        T0,
        false,
      );
      if ('error' in r) {
        throw new Error(r.error);
      }
      seen.unshift(...r.timeline.map((e) => e.seq));
      if (r.next_before_seq === null) {
        break;
      }
      before = r.next_before_seq;
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('returns the last log_lines of a capture, and refuses a capture_seq that is no crash', () => {
    const s = newSession('ds-test01', install(), null, 'unattributed', T0);
    addCrash(s, crash('k1', { lines: ['1', '2', '3', '4'] }), T0);
    const seq = s.crashes[0]!.seq;
    const r = sessionDetail(s, { session_id: s.id, max_events: 0, log_lines: 2, capture_seq: seq }, T0, true);
    expect('error' in r).toBe(false);
    if (!('error' in r)) {
      expect(r.capture).toMatchObject({ seq, lines: ['3', '4'], kept: 4, cut: true });
      expect(r.timeline).toEqual([]);
      expect(r.next_before_seq).toBeNull();
    }
    const bad = sessionDetail(s, { session_id: s.id, max_events: 0, log_lines: 2, capture_seq: 1 }, T0, true);
    expect('error' in bad && bad.error).toMatch(/capture_seq 1 is not a crash/);
  });

  it('lists newest first and filters by package, device or AVD name, state, and crashing', () => {
    const a = newSession('ds-aaaaaa1', install(), null, 'unattributed', T0);
    const b = newSession('ds-aaaaaa2', install({ device: 'R58M' }), null, 'unattributed', T0 + 1000);
    a.avd_name = 'Pixel_8_API_34';
    addCrash(b, crash('k'), T0 + 2000);
    const entries = [summarize(a), summarize(b)];
    const list = (p: Partial<Parameters<typeof listSessions>[1]>) =>
      listSessions(entries, { limit: 10, only_crashing: false, ...p }, T0 + 3000, []).sessions.map(
        (x) => x.id,
      );
    expect(list({})).toEqual(['ds-aaaaaa2', 'ds-aaaaaa1']);
    expect(list({ device: 'Pixel_8_API_34' })).toEqual(['ds-aaaaaa1']);
    expect(list({ device: 'R58M' })).toEqual(['ds-aaaaaa2']);
    expect(list({ only_crashing: true })).toEqual(['ds-aaaaaa2']);
    expect(list({ state: 'idle' })).toEqual([]);
    expect(
      listSessions(entries, { limit: 10, only_crashing: false, state: 'idle' }, T0 + 2 * IDLE_AFTER_MS, [])
        .matched,
    ).toBe(2);
    expect(list({ package: 'com.other.app' })).toEqual([]);
  });
});

describe('crash attribution', () => {
  const ctx = {
    found: true,
    kind: 'java' as const,
    time: '',
    ts: 0,
    before: [],
    lines: [],
    truncated: false,
    signature: null,
    title: null,
  };

  it('is verified when the crashed process started after the install, on the device clock', () => {
    const start = { seq: 5, ts: T0 + 2_000, time: '2025-03-01 10:00:02.000' };
    expect(attributeByProcessStart(install(), { ...ctx, process_start: start }, 1234)).toMatchObject({
      method: 'install_record',
      verified: true,
    });
    // lastUpdateTime has whole seconds: a start in the same second counts as after it.
    expect(
      attributeByProcessStart(install(), { ...ctx, process_start: { ...start, ts: T0 - 500 } }, 1),
    ).not.toBeNull();
    expect(
      attributeByProcessStart(install(), { ...ctx, process_start: { ...start, ts: T0 - 5_000 } }, 1),
    ).toBeNull();
    expect(attributeByProcessStart(install(), { ...ctx, process_start: null }, 1)).toBeNull();
    expect(
      attributeByProcessStart(install({ device_last_update_ms: null }), { ...ctx, process_start: start }, 1),
    ).toBeNull();
  });

  it('is verified by a matching APK hash, unattributed and closing the session for another APK or none', () => {
    expect(
      attributeByDeviceApk(install(), { kind: 'hash', sha256: 'a'.repeat(64), path: '/data/app/x/base.apk' }),
    ).toMatchObject({
      attribution: { method: 'install_record', verified: true },
      closeBecause: null,
    });
    const other = attributeByDeviceApk(install(), {
      kind: 'hash',
      sha256: 'b'.repeat(64),
      path: '/data/app/x/base.apk',
    });
    expect(other.attribution).toMatchObject({ method: 'unattributed', verified: false });
    expect(other.closeBecause).toMatch(/reinstalled outside droidbus/);
    expect(attributeByDeviceApk(install(), { kind: 'not_installed' }).closeBecause).toBe(
      'the app was uninstalled',
    );
    expect(
      attributeByDeviceApk(install(), {
        kind: 'cannot_hash',
        reason: 'offline',
        version_code: null,
        last_update_ms: null,
      }),
    ).toMatchObject({
      attribution: { method: 'install_record', verified: false },
      closeBecause: null,
    });
  });
});
