import { describe, expect, it } from 'vitest';
import type { InstallRecord } from '../../bus/messages/app-events.js';
import type { SessionBuild } from '../../bus/messages/sessions.js';
import type { SessionFile } from '../../store/formats/debug-session.js';
import { compareSessions, defaultPair } from './session-compare.js';
import { addCrash, appendEvent, newSession, summarize } from './session-model.js';

const T0 = Date.parse('2025-03-01T10:00:00Z');
const AGENT = {
  kind: 'agent' as const,
  session_id: 'abcdef0123456789',
  client_name: 'codex',
  standalone: false,
};

function install(over: Partial<InstallRecord> = {}): InstallRecord {
  return {
    id: 'i1',
    device: 'emulator-5554',
    package: 'com.example.app',
    apk_path: '/p/app-debug.apk',
    apk_sha256: 'a'.repeat(64),
    apk_size: 1,
    version_code: 7,
    version_name: '1.7',
    build_id: 'b-one-1',
    module: ':app',
    variant: 'debug',
    project_root: '/p',
    installed_at: new Date(T0).toISOString(),
    device_last_update_ms: T0,
    installed_by: AGENT,
    recorded_by: 'host',
    ...over,
  };
}

function build(id: string, over: Partial<NonNullable<SessionBuild['source']>> = {}): SessionBuild {
  return {
    id,
    task: 'assembleDebug',
    module: ':app',
    variant: 'debug',
    version_code: 7,
    version_name: '1.7',
    apk_sha256: 'a'.repeat(64),
    mapping_sha256: [],
    map_ids: [],
    ended_at: new Date(T0).toISOString(),
    source: {
      commit: 'c'.repeat(40),
      branch: 'main',
      uncommitted_changes: false,
      changed_files: [],
      changed_files_truncated: false,
      no_commit_because: null,
      gradle_version: '8.11.1',
      jdk_version: '17.0.12',
      java_home: null,
      agp_version: '8.7.3',
      dependencies: null,
      build_files: [
        { path: 'app/build.gradle.kts', sha256: '1'.repeat(64) },
        { path: 'settings.gradle.kts', sha256: '2'.repeat(64) },
      ],
      ...over,
    },
  };
}

function launch(s: SessionFile, ms: number, state = 'cold', device = s.device): void {
  appendEvent(
    s,
    {
      kind: 'launch',
      by: AGENT,
      summary: 'launched',
      launch: {
        device,
        activity: null,
        restart: false,
        total_ms: ms,
        wait_ms: ms,
        displayed_ms: null,
        launch_state: state,
      },
    },
    T0,
  );
}

function crash(s: SessionFile, sig: string, key: string): void {
  addCrash(
    s,
    {
      kind: 'java',
      time: '',
      pid: 1,
      group_id: '0123456789ab',
      summary: sig,
      signature: sig,
      title: sig,
      attribution: { method: 'install_record', verified: true, reason: '' },
      lines: [],
      lines_before: 0,
      truncated: false,
      key,
    },
    T0,
  );
}

describe('the default pair of compare_debug_sessions', () => {
  it('takes the newest session that launched without a crash and the first later crashing one of the same app', () => {
    const old = newSession('ds-aaaaaa1', install(), null, 'unattributed', T0);
    launch(old, 500);
    const good = newSession('ds-aaaaaa2', install(), null, 'unattributed', T0 + 1000);
    launch(good, 500);
    const otherApp = newSession(
      'ds-aaaaaa3',
      install({ package: 'com.other' }),
      null,
      'unattributed',
      T0 + 2000,
    );
    crash(otherApp, 'x', 'k');
    const bad = newSession('ds-aaaaaa4', install(), null, 'unattributed', T0 + 3000);
    crash(bad, 'y', 'k');
    const worse = newSession('ds-aaaaaa5', install(), null, 'unattributed', T0 + 4000);
    crash(worse, 'z', 'k');
    const pair = defaultPair([old, good, otherApp, bad, worse].map(summarize));
    expect(pair).toMatchObject({ from: 'ds-aaaaaa2', to: 'ds-aaaaaa4' });
  });

  it('explains why there is no pair', () => {
    const bad = newSession('ds-aaaaaa4', install(), null, 'unattributed', T0);
    crash(bad, 'y', 'k');
    expect(defaultPair([summarize(bad)])).toMatchObject({
      error: expect.stringMatching(/no session launched the app without a crash/),
    });
    const lone = newSession('ds-aaaaaa1', install(), null, 'unattributed', T0 + 1000);
    launch(lone, 1);
    expect(defaultPair([summarize(bad), summarize(lone)])).toMatchObject({
      error: expect.stringMatching(/was followed by a crashing session/),
    });
  });
});

describe('comparing two sessions', () => {
  it('names what differs, the launch delta, new crash signatures, and the changed build file of a dirty build of the same commit', () => {
    const from = newSession('ds-aaaaaa1', install(), build('b-one-1'), 'recorded', T0);
    launch(from, 500);
    crash(from, 'old', 'k1');
    const to = newSession(
      'ds-aaaaaa2',
      install({ apk_sha256: 'b'.repeat(64), build_id: 'b-two-2' }),
      build('b-two-2', {
        uncommitted_changes: true,
        changed_files: ['app/build.gradle.kts'],
        build_files: [
          { path: 'app/build.gradle.kts', sha256: '3'.repeat(64) },
          { path: 'settings.gradle.kts', sha256: '2'.repeat(64) },
        ],
      }),
      'recorded',
      T0 + 1000,
    );
    launch(to, 650);
    crash(to, 'new', 'k2');
    crash(to, 'new', 'k3');
    const r = compareSessions(from, to, null, T0 + 2000);
    expect(r.differences.map((d) => d.field)).toEqual(['build_id', 'apk_sha256']);
    expect(r.launch).toMatchObject({ comparable: true, delta_ms: 150, note: null });
    expect(r.crashes.new_in_to).toEqual(['new']);
    expect(r.crashes.gone_in_to).toEqual(['old']);
    expect(r.crashes.to).toEqual([{ signature: 'new', title: 'new', kind: 'java', count: 2 }]);
    expect(r.provenance).toMatchObject({
      same_commit: true,
      differences: [{ field: 'dirty', from: false, to: true }],
      changed_build_files: [{ path: 'app/build.gradle.kts', change: 'changed' }],
    });
    expect(r.provenance?.notes.join(' ')).toMatch(
      /same commit was built, but ds-aaaaaa2's build had uncommitted changes/,
    );
    expect(r.not_recorded.join(' ')).toMatch(/resolved dependency versions/);
    expect(r.not_recorded.join(' ')).toMatch(/content of uncommitted changes/);
    expect(r.not_recorded.join(' ')).not.toMatch(/AGP/);
  });

  it('gives no delta for launches on different devices or of different kinds, and lists dependency changes', () => {
    const deps = (v: string) => ({
      configuration: 'debugRuntimeClasspath',
      versions: { 'a:b': v, 'c:d': '1' },
      count: 2,
      truncated: false,
    });
    const from = newSession(
      'ds-aaaaaa1',
      install(),
      build('b-one-1', { dependencies: deps('1.0') }),
      'recorded',
      T0,
    );
    const to = newSession(
      'ds-aaaaaa2',
      install({ device: 'R58M' }),
      build('b-two-2', { dependencies: deps('1.1') }),
      'recorded',
      T0 + 1,
    );
    launch(from, 500);
    launch(to, 400, 'cold', 'R58M');
    const r = compareSessions(from, to, null, T0);
    expect(r.launch).toMatchObject({
      comparable: false,
      delta_ms: null,
      note: expect.stringMatching(/different devices/),
    });
    expect(r.provenance?.dependency_changes).toEqual([{ module: 'a:b', from: '1.0', to: '1.1' }]);
    expect(r.not_recorded.join(' ')).not.toMatch(/dependency/);
    const warm = newSession('ds-aaaaaa3', install(), build('b-two-2'), 'recorded', T0 + 2);
    launch(warm, 100, 'warm');
    expect(compareSessions(from, warm, null, T0).launch).toMatchObject({
      comparable: false,
      note: expect.stringMatching(/not the same kind \(cold vs warm\)/),
    });
  });

  it('says provenance is not recorded when neither session has a build', () => {
    const a = newSession('ds-aaaaaa1', install({ build_id: null }), null, 'unattributed', T0);
    const b = newSession('ds-aaaaaa2', install({ build_id: null }), null, 'unattributed', T0 + 1);
    const r = compareSessions(a, b, null, T0);
    expect(r.provenance).toBeNull();
    expect(r.not_recorded).toEqual([
      'the build of ds-aaaaaa1 and ds-aaaaaa2 (no build record matched its APK)',
      'where the builds came from (neither build recorded it)',
    ]);
  });
});
