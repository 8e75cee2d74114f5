import { describe, expect, it } from 'vitest';
import { extractJson, LogEnricher, parseDurationMs, parseLaunchTime } from './logcat-enrich.js';
import { parseLogcat } from './logcat-parse.js';
import { PidMap, packageOfProcess, parsePs } from './pid-map.js';
import type { LogEntry } from './logcat-types.js';
import { fixture, fixtureBytes } from './test-fixtures.js';

function enriched(text: string | Buffer, pids = new PidMap()): { entries: LogEntry[]; pids: PidMap } {
  const { entries } = parseLogcat(text, { year: 2024 });
  const enricher = new LogEnricher({ pids });
  for (const e of entries) {
    enricher.enrich(e);
  }
  return { entries, pids };
}

describe('pid → package', () => {
  it('learns packages from `Start proc pid:pkg/uid` and tags later lines of that pid', () => {
    const { entries, pids } = enriched(fixture('threadtime-uid-signal.txt'));
    expect(pids.packageOf(6308)).toBe('org.thoughtcrime.securesms');
    expect(entries.find((e) => e.tag === 'AndroidRuntime')?.package).toBe('org.thoughtcrime.securesms');
    // system_server lines have no package.
    expect(entries[0]?.package).toBeNull();
  });

  it('learns packages from the pre-Oreo `Start proc pkg for …: pid=N` form, process suffixes stripped', () => {
    const { pids } = enriched(fixtureBytes('brief-galaxy-nexus.txt'));
    expect(pids.packageOf(32676)).toBe('com.google.android.music');
    expect(pids.processOf(32676)).toBe('com.google.android.music:main');
    expect(pids.packageOf(32716)).toBe('com.google.android.talk');
  });

  it('learns packages from `Killing`, `has died` and `No longer want` lines', () => {
    const { pids } = enriched(
      [
        // The message as in ukanth/afwall#555 (whose paste dropped the time): a death seen without its start.
        '08-06 10:00:00.000 814-1482/? I/ActivityManager: Process dev.ukanth.ufirewall (pid 1927) has died',
        '08-06 10:00:00.001  1490  1512 I ActivityManager: Killing 4021:com.example.app/u0a123 (adj 900): empty #17',
      ].join('\n'),
    );
    expect(pids.packageOf(1927)).toBe('dev.ukanth.ufirewall');
    expect(pids.packageOf(4021)).toBe('com.example.app');
    const brief = enriched(fixtureBytes('brief-galaxy-nexus.txt')).pids;
    expect(brief.packageOf(32521)).toBe('com.android.providers.calendar');
  });

  it('learns packages from Studio copies and AndroidRuntime `Process:` lines', () => {
    const studio = enriched(fixture('studio-new-ohmybread.txt'));
    expect(studio.pids.packageOf(2155)).toBe('br.com.ohmybread');
    expect(studio.entries.find((e) => e.tag === '')?.category).toBe('lifecycle');
    const crash = enriched(fixture('brief-signal-3276-crash.txt'));
    expect(crash.pids.packageOf(30012)).toBe('org.thoughtcrime.securesms');
  });

  it('is seeded from ps -A output and tells apps from daemons', () => {
    const ps = parsePs(
      [
        'USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME',
        'root             1     0 10916600 11864 do_epoll_wait      0 S init',
        'system        1490   578 15417636 270116 do_epoll_wait     0 S system_server',
        'u0_a123       4021   578 14721908 143216 do_epoll_wait     0 S com.example.app',
        'u0_a123       4188   578 14562200 98772 do_epoll_wait      0 S com.example.app:sync',
      ].join('\n'),
    );
    expect(ps.map((p) => [p.pid, p.name])).toEqual([
      [1, 'init'],
      [1490, 'system_server'],
      [4021, 'com.example.app'],
      [4188, 'com.example.app:sync'],
    ]);
    const pids = new PidMap();
    pids.seed(ps);
    expect([pids.packageOf(1), pids.packageOf(1490), pids.packageOf(4021), pids.packageOf(4188)]).toEqual([
      null,
      null,
      'com.example.app',
      'com.example.app',
    ]);
    expect(pids.pidsOf('com.example.app').sort()).toEqual([4021, 4188]);
    expect(packageOfProcess('ven...hardware.mtkpower@1.0-service')).toBeNull();
  });

  it('stays bounded', () => {
    const pids = new PidMap(3);
    for (let pid = 1; pid <= 5; pid++) {
      pids.set(pid, `com.app${pid}.x`);
    }
    expect(pids.size).toBe(3);
    expect(pids.packageOf(1)).toBeNull();
    expect(pids.packageOf(5)).toBe('com.app5.x');
  });
});

describe('launch times', () => {
  it('reads the ActivityManager form seen in a real log', () => {
    // From signalapp/Signal-Android#667: `I/ActivityManager( 1884): Displayed org.thoughtcrime.securesms/.ConversationListActivity: +659ms`
    expect(parseLaunchTime('Displayed org.thoughtcrime.securesms/.ConversationListActivity: +659ms')).toEqual(
      {
        kind: 'displayed',
        package: 'org.thoughtcrime.securesms',
        component: 'org.thoughtcrime.securesms/.ConversationListActivity',
        activity: 'org.thoughtcrime.securesms.ConversationListActivity',
        ms: 659,
        total_ms: null,
      },
    );
  });

  it('reads the `for user N`, `(total …)` and Fully drawn forms and full class names', () => {
    expect(parseLaunchTime('Displayed com.example/.MainActivity for user 0: +812ms')).toMatchObject({
      ms: 812,
      total_ms: null,
      package: 'com.example',
    });
    expect(parseLaunchTime('Displayed com.example/.Main: +1s234ms (total +1s500ms)')).toMatchObject({
      ms: 1234,
      total_ms: 1500,
    });
    expect(parseLaunchTime('Fully drawn com.example/com.other.Main: +2s5ms')).toMatchObject({
      kind: 'fully_drawn',
      ms: 2005,
      activity: 'com.other.Main',
    });
    expect(parseLaunchTime('Displayed com.example/.Main: soon')).toBeNull();
    expect(parseDurationMs('1m2s3ms')).toBe(62_003);
    expect(parseDurationMs('12x')).toBeNaN();
  });

  it('sets launch and category on Displayed lines of either tag', () => {
    const { entries } = enriched(
      [
        '03-15 10:00:00.000  1490  1512 I ActivityTaskManager: Displayed com.example/.MainActivity for user 0: +812ms',
        '03-15 10:00:01.000  1490  1512 I ActivityManager: Displayed com.example/.Main: +1s234ms (total +1s500ms)',
      ].join('\n'),
    );
    expect(entries.map((e) => [e.category, e.launch?.ms, e.launch?.total_ms])).toEqual([
      ['launch', 812, null],
      ['launch', 1234, 1500],
    ]);
  });
});

describe('categories and JSON', () => {
  it('tags GC lines of ART and Dalvik', () => {
    const linphone = enriched(fixture('threadtime-linphone-native.txt')).entries;
    expect(linphone.filter((e) => e.category === 'gc')).toHaveLength(2);
    const cupcake = enriched(fixture('studio-old-cupcake.txt')).entries;
    expect(cupcake.filter((e) => e.category === 'gc').map((e) => e.tag)).toEqual(['dalvikvm', 'dalvikvm']);
  });

  it('tags ANR, lifecycle and crash lines by their tags', () => {
    const anr = enriched(fixture('tag-droidify-anr.txt')).entries;
    expect(anr[0]?.category).toBe('anr');
    expect(anr[1]?.category).toBe('lifecycle');
    const uid = enriched(fixture('threadtime-uid-signal.txt')).entries;
    expect(uid.find((e) => e.tag === 'AndroidRuntime')?.category).toBe('crash');
  });

  it('parses a message that is or ends with JSON, and nothing else', () => {
    expect(extractJson('{"a":1,"b":[true,null]}')).toEqual({ a: 1, b: [true, null] });
    expect(extractJson('response body: [{"id":7}]')).toEqual([{ id: 7 }]);
    expect(
      extractJson(
        'Intent { act=android.intent.action.PACKAGE_ADDED dat=package: flg=0x4000010 (has extras) }',
      ),
    ).toBeNull();
    expect(extractJson('applied 2 plugins for [br.com.ohmybread]')).toBeNull();
    expect(extractJson('Bundle[{key=value}]')).toBeNull();
    expect(extractJson(`{"big":"${'x'.repeat(20_000)}"}`)).toBeNull();
    const real = enriched(fixture('time-ddms-firebase.txt')).entries;
    expect(real.filter((e) => e.json !== null)).toHaveLength(0);
  });
});
