import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseNotificationDump, parseNotificationFlags } from './notification-dump.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../../tests/fixtures/notifications/${name}`, import.meta.url), 'utf8');

describe('dumpsys notification, real captures', () => {
  it('reads an Android 16 record with flags by name, when=T/T, action labels and a channel with a space', () => {
    const [clock, safety, ...rest] = parseNotificationDump(fixture('android16-deskclock-stopwatch.txt'));
    expect(rest).toEqual([]);
    expect(clock).toEqual({
      key: '0|com.google.android.deskclock|2147483642|null|10173',
      package: 'com.google.android.deskclock',
      id: 2147483642,
      tag: null,
      user: 0,
      title: null,
      text: null,
      sub_text: null,
      big_text: null,
      post_time: 1779532067942,
      when: 1779532067910,
      ongoing: false,
      clearable: true,
      channel: 'Stopwatch v2',
      importance: 3,
      category: null,
      actions: ['Start', 'Reset'],
      redacted: false,
    });
    // The second record is cut short by the source: what it has is still read.
    expect(safety).toMatchObject({
      key: '0|android|2345|ChFBbmRyb2lkTG9ja1NjcmVlbhIRTm9TY3JlZW5Mb2NrSXNzdWUYAA==|1000',
      package: 'android',
      tag: 'ChFBbmRyb2lkTG9ja1NjcmVlbhIRTm9TY3JlZW5Mb2NrSXNzdWUYAA==',
      channel: 'safety_center_recommendation',
      ongoing: false,
      clearable: true,
      actions: [],
    });
  });

  it('marks redacted texts and reads an ongoing system notification of user -1 (Android 12 TV)', () => {
    const list = parseNotificationDump(fixture('android12-tv-redacted-usb-debugging.txt'));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      key: '-1|android|26|null|1000',
      package: 'android',
      user: -1,
      title: null,
      text: null,
      redacted: true,
      ongoing: true,
      clearable: false,
      importance: 4,
      channel: 'DEVELOPER_IMPORTANT',
      post_time: 1706767655811,
      when: 0,
    });
  });

  it('reads a grep-filtered dump: keys from the record line, hex flags, the outer flags of a nested publicVersion', () => {
    const list = parseNotificationDump(fixture('phone-grep-pkg-ticker.txt'));
    expect(list.map((n) => [n.package, n.ongoing, n.clearable])).toEqual([
      ['com.android.server.telecom', false, true],
      ['android', true, false],
      ['android', true, false],
      ['com.rom1v.sndcpy', true, false],
      ['com.github.metacubex.clash.meta', true, false],
      ['com.iflytek.speechsuite', true, false],
      ['android', true, false],
    ]);
    expect(list[0]).toMatchObject({
      key: '0|com.android.server.telecom|3|MissedCallNotifierImpl|1001',
      tag: 'MissedCallNotifierImpl',
      channel: 'TelecomMissedCalls',
      importance: 3,
    });
    expect(list[1]!.key).toBe('-1|android|26|null|1000');
  });
});

describe('dumpsys notification, shapes the captures above do not show', () => {
  // Built from the line formats of AOSP's NotificationRecord.dump (not a device capture).
  const record = (extras: string[]): string =>
    [
      'Current Notification Manager state:',
      '  Notification List:',
      '    NotificationRecord(0x0abc1234: pkg=com.example.chat user=UserHandle{0} id=7 tag=null importance=4 key=0|com.example.chat|7|null|10123: Notification(channel=messages shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x10 color=0x00000000 category=msg vis=PRIVATE))',
      '      uid=10123 userId=0',
      '      flags=0x10',
      '      key=0|com.example.chat|7|null|10123',
      '      notification=',
      '            when=1700000000000',
      '            extras={',
      // A value's line break is printed as is: its next line starts at the left edge.
      ...extras.map((e) => (e.startsWith('|') ? e.slice(1) : `                ${e}`)),
      '            }',
      '      mCreationTimeMs=1700000000123',
      '',
      '  mSoundNotificationKey=null',
    ].join('\n');

  it('reads String and SpannableString values, and a text that goes on over several lines', () => {
    const [n] = parseNotificationDump(
      record([
        'android.title=String (Ada (work))',
        'android.text=SpannableString (first line',
        '|second line)',
        'android.subText=String (2 new)',
        'android.bigText=SpannableString (all of it)',
      ]),
    );
    expect(n).toMatchObject({
      title: 'Ada (work)',
      text: 'first line\nsecond line',
      sub_text: '2 new',
      big_text: 'all of it',
      category: 'msg',
      post_time: 1700000000123,
      when: 1700000000000,
      redacted: false,
    });
  });

  it('reads flag names and numbers alike', () => {
    expect(parseNotificationFlags('0x62')).toBe(0x62);
    expect(parseNotificationFlags('ONGOING_EVENT|NO_CLEAR|FOREGROUND_SERVICE')).toBe(0x62);
    expect(parseNotificationFlags('0')).toBe(0);
    expect(parseNotificationFlags('AUTO_CANCEL|LOCAL_ONLY')).toBe(0x110);
  });

  it('finds nothing in an empty list or in text that is not a dump', () => {
    expect(
      parseNotificationDump(
        'Current Notification Manager state:\n  Notification List:\n\n  mSoundNotificationKey=null\n',
      ),
    ).toEqual([]);
    expect(parseNotificationDump("Permission Denial: can't dump NotificationManager")).toEqual([]);
  });
});
