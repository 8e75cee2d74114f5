import { describe, expect, it } from 'vitest';
import { formatExitInfoLine, parseExitInfo, parseSizeKb, summarizeExitInfo } from './exit-info.js';
import { parseMeminfo } from './meminfo.js';
import { parsePackageDump } from './package-dump.js';
import { fixture } from './test-fixtures.js';

describe('dumpsys activity exit-info', () => {
  it('reads the Android 11 one-field-per-line layout, even when cut short', () => {
    const records = parseExitInfo(fixture('dumpsys-exit-info-firetv.txt'));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      package: 'com.eurosport.player',
      uid: 10078,
      index: 0,
      timestamp: '2024-05-06 17:38:47.527',
      pid: 30643,
      real_uid: 10078,
      package_uid: 10078,
      defining_uid: 10078,
      user: 0,
      process: 'com.eurosport.player',
      reason_code: 1,
      reason: 'EXIT_SELF',
      reason_label: 'EXIT_SELF',
      subreason_code: 17,
      subreason: 'ISOLATED',
      status: null,
      pss_kb: null,
    });
    expect(records[0]?.ts).toBe(new Date(2024, 4, 6, 17, 38, 47, 527).getTime());
    expect(formatExitInfoLine(records[0] as never)).toBe(
      '2024-05-06 17:38:47.527  EXIT_SELF/ISOLATED  com.eurosport.player (pid 30643)',
    );
  });

  it('reads the three-line layout of later releases, newest first, with a pointer to the crash tools', () => {
    // The record layout of ApplicationExitInfo.dump since Android 12 (no citable capture was found;
    // the field order and labels follow AOSP). Two uids, so the sort across uids is exercised.
    const text = [
      'ACTIVITY MANAGER PROCESS EXIT INFO (dumpsys activity exit-info)',
      'Last Timestamp of Persistence Into Persistent Storage: 2024-09-24 23:20:00.000',
      '  package: com.example.app',
      '    Historical Process Exit for uid=10123',
      '        ApplicationExitInfo #0:',
      '          timestamp=2024-09-25 00:33:03.880 pid=4189 realUid=10123 packageUid=10123 definingUid=10123 user=0',
      '          process=com.example.app reason=4 (APP CRASH(EXCEPTION)) subreason=0 (UNKNOWN) status=0',
      '          importance=100 pss=58MB rss=147MB description=crash state=empty trace=null',
      '        ApplicationExitInfo #1:',
      '          timestamp=2024-09-24 23:26:31.481 pid=4475 realUid=10123 packageUid=10123 definingUid=10123 user=0',
      '          process=com.example.app reason=2 (SIGNALED) subreason=0 (UNKNOWN) status=6',
      '          importance=400 pss=0.00 rss=2.5GB description=stop com.example.app due to from pid 8396 state=46 bytes trace=null',
      '    Historical Process Exit for uid=1010123',
      '        ApplicationExitInfo #0:',
      '          timestamp=2024-09-25 01:00:00.000 pid=5000 realUid=1010123 packageUid=1010123 definingUid=1010123 user=10',
      '          process=com.example.app:remote reason=6 (ANR) subreason=0 (UNKNOWN) status=0',
      '          importance=125 pss=12.3MB rss=34.5MB description=user request after error: Input dispatching timed out state=empty trace=null',
    ].join('\n');
    const records = parseExitInfo(text);
    expect(records.map((r) => [r.pid, r.reason, r.uid])).toEqual([
      [5000, 'ANR', 1010123],
      [4189, 'CRASH', 10123],
      [4475, 'SIGNALED', 10123],
    ]);
    expect(records[1]).toMatchObject({
      reason_label: 'APP CRASH(EXCEPTION)',
      subreason: 'UNKNOWN',
      pss_kb: 58 * 1024,
      rss_kb: 147 * 1024,
      description: 'crash',
      trace: null,
    });
    expect(records[2]).toMatchObject({
      signal: 'SIGABRT',
      importance_name: 'CACHED',
      rss_kb: Math.round(2.5 * 1024 * 1024),
      description: 'stop com.example.app due to from pid 8396',
      state: '46 bytes',
    });
    const s = summarizeExitInfo(records, 2);
    expect(s.lines).toEqual([
      '2024-09-25 01:00:00.000  ANR  status 0  com.example.app:remote (pid 5000)  importance FOREGROUND_SERVICE  pss 12 MB rss 35 MB: user request after error: Input dispatching timed out',
      '2024-09-25 00:33:03.880  CRASH  status 0  com.example.app (pid 4189)  importance FOREGROUND  pss 58 MB rss 147 MB: crash',
    ]);
    expect(s.total).toBe(3);
    expect(s.hint).toMatch(/get_crash_logs/);
    expect(summarizeExitInfo(records.slice(2)).hint).toBeNull();
  });

  it('reads sizes as DebugUtils prints them', () => {
    expect([
      parseSizeKb('0.00'),
      parseSizeKb('512KB'),
      parseSizeKb('58MB'),
      parseSizeKb('2.5GB'),
      parseSizeKb('x'),
    ]).toEqual([0, 512, 59392, 2621440, null]);
  });
});

describe('dumpsys meminfo', () => {
  it('reads the App Summary with Pss and Rss columns, totals, heaps and objects', () => {
    const m = parseMeminfo(fixture('dumpsys-meminfo-systemui.txt'));
    expect(m).toMatchObject({
      pid: 2084,
      process: 'com.android.systemui',
      uptime_ms: 152713,
      java_heap: { pss_kb: 15316, rss_kb: 40844 },
      native_heap: { pss_kb: 22136, rss_kb: 24944 },
      code: { pss_kb: 12600, rss_kb: 79940 },
      stack: { pss_kb: 1120, rss_kb: 1136 },
      graphics: { pss_kb: 27095, rss_kb: 27095 },
      private_other: { pss_kb: 5024, rss_kb: null },
      system: { pss_kb: 13641, rss_kb: null },
      unknown: { pss_kb: null, rss_kb: 8732 },
      total_pss_kb: 96932,
      total_rss_kb: 182691,
      total_swap_kb: 0,
      native_heap_usage: { size_kb: 32280, alloc_kb: 23879, free_kb: 3824 },
      dalvik_heap_usage: { size_kb: 32807, alloc_kb: 8231, free_kb: 24576 },
    });
    expect(m?.objects).toMatchObject({
      Views: 863,
      ViewRootImpl: 6,
      Activities: 0,
      'Local Binders': 319,
      WebViews: 0,
    });
  });

  it('reads the wider -a -d table and ignores the Dalvik Details and DATABASES sections', () => {
    const m = parseMeminfo(fixture('dumpsys-meminfo-launcher3.txt'));
    expect(m).toMatchObject({
      pid: 21936,
      process: 'com.android.launcher3',
      java_heap: { pss_kb: 5604, rss_kb: 26492 },
      graphics: { pss_kb: 61692, rss_kb: 61692 },
      total_pss_kb: 105529,
      total_rss_kb: 187052,
      native_heap_usage: { size_kb: 39580, alloc_kb: 24489, free_kb: 11037 },
    });
    expect(m?.objects.Activities).toBe(1);
    expect(m?.objects.MEMORY_USED).toBeUndefined();
  });

  it('answers null when the process is not running', () => {
    expect(parseMeminfo('No process found for: com.example.app\n')).toBeNull();
  });
});

describe('dumpsys package', () => {
  it('reads versions, SDK levels, times, flags and per-user state of one package', () => {
    const p = parsePackageDump(
      fixture('dumpsys-package-samsung.txt'),
      'com.samsung.android.provider.filterprovider',
    );
    expect(p).toMatchObject({
      package: 'com.samsung.android.provider.filterprovider',
      user_id: 1000,
      version_code: 500700000,
      version_name: '5.0.07',
      min_sdk: 28,
      target_sdk: 28,
      first_install_time: '2008-12-31 16:00:00',
      last_update_time: '2008-12-31 16:00:00',
      code_path: '/system/app/FilterProvider',
      primary_cpu_abi: 'armeabi-v7a',
      flags: ['SYSTEM', 'HAS_CODE', 'ALLOW_CLEAR_USER_DATA'],
      requested_permissions: [],
      users: [
        {
          user: 0,
          installed: true,
          hidden: false,
          suspended: false,
          stopped: false,
          not_launched: false,
          enabled: 0,
          enabled_state: 'DEFAULT',
        },
      ],
    });
    expect(p?.declared_permissions).toHaveLength(4);
  });

  it('reads requested, install-time and runtime permissions with their granted state', () => {
    const p = parsePackageDump(fixture('dumpsys-package-samsung.txt'), 'com.sec.android.app.DataCreate');
    expect(p?.version_code).toBe(1);
    expect(p?.requested_permissions).toHaveLength(11);
    expect(p?.requested_permissions[0]).toBe('android.permission.ACCESS_WIFI_STATE');
    expect(p?.install_permissions).toHaveLength(20);
    expect(p?.install_permissions.every((x) => x.granted)).toBe(true);
    expect(p?.runtime_permissions).toHaveLength(13);
    expect(p?.runtime_permissions[4]).toEqual({
      name: 'android.permission.READ_EXTERNAL_STORAGE',
      granted: false,
      flags: ['REVOKE_WHEN_REQUESTED', 'USER_SENSITIVE_WHEN_GRANTED', 'RESTRICTION_UPGRADE_EXEMPT'],
    });
    expect(p?.primary_cpu_abi).toBeNull();
  });

  it('answers null for a package the dump does not hold, and the first one without a name', () => {
    expect(parsePackageDump(fixture('dumpsys-package-samsung.txt'), 'com.example.missing')).toBeNull();
    expect(parsePackageDump(fixture('dumpsys-package-samsung.txt'))?.package).toBe(
      'com.samsung.android.provider.filterprovider',
    );
  });

  it('reads the app id Android 16 prints as appId= (older releases: userId=)', () => {
    expect(
      parsePackageDump(fixture('dumpsys-package-android16-excerpt.txt'), 'com.android.calendar'),
    ).toMatchObject({
      package: 'com.android.calendar',
      user_id: 10103,
      version_name: '16',
      min_sdk: 36,
      target_sdk: 36,
      last_update_time: '2026-06-10 09:02:03',
    });
  });

  it('reads a key named like an object property (__proto__, constructor) as an unknown key', () => {
    const dump =
      'Packages:\n  Package [com.example.app] (1a2b3c):\n    __proto__=x\n    constructor=y\n    userId=10123\n';
    expect(parsePackageDump(dump)).toMatchObject({ package: 'com.example.app', user_id: 10123 });
  });
});
