import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  drawsNewWindow,
  parseAmStartTiming,
  parseResolvedActivity,
  pmFailure,
  timingLine,
} from './am-start.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../../tests/fixtures/device-admin/${name}`, import.meta.url), 'utf8');

describe('am start -W output', () => {
  it('reads the launch state and times Android 10+ prints', () => {
    const timing = parseAmStartTiming(fixture('am-start-w-android10.txt'));
    expect(timing).toEqual({
      total_ms: 1479,
      wait_ms: 1482,
      launch_state: 'COLD',
      activity: 'com.facebook.alohaapps.launcher/com.facebook.aloha.app.home.touch.HomeActivity',
      status: 'ok',
    });
    expect(timingLine(timing)).toBe('Launch time: 1479 ms (cold), wait 1482 ms');
    expect(drawsNewWindow(timing)).toBe(true);
  });

  it('reads the times of older Androids, which print no launch state', () => {
    const timing = parseAmStartTiming(fixture('am-start-w-android7.txt'));
    expect(timing).toMatchObject({ total_ms: 110, wait_ms: 117, launch_state: null });
    expect(timingLine(timing)).toBe('Launch time: 110 ms, wait 117 ms');
  });

  it('says no time was reported when the activity was already in front', () => {
    const timing = parseAmStartTiming(
      'Warning: Activity not started, intent has been delivered to currently running top-most instance.\nStatus: ok\nLaunchState: UNKNOWN (0)\nActivity: com.example/.Main\nWaitTime: 4\nComplete\n',
    );
    expect(timingLine(timing)).toBe('No launch time was reported (unknown (0)), wait 4 ms.');
    expect(drawsNewWindow(timing)).toBe(false);
    expect(drawsNewWindow({ ...timing, total_ms: 60, launch_state: 'HOT' })).toBe(false);
  });
});

describe('resolve-activity --brief', () => {
  it('takes the component on the last line and nothing from "No activity found"', () => {
    expect(
      parseResolvedActivity(
        'priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\ncom.example.app/.MainActivity\n',
      ),
    ).toBe('com.example.app/.MainActivity');
    expect(parseResolvedActivity('No activity found\n')).toBeNull();
  });
});

describe('package manager failures', () => {
  it('finds the exception line of a refused grant and passes a quiet success', () => {
    expect(
      pmFailure(
        "Exception occurred while executing 'grant':\njava.lang.SecurityException: Package com.x has not requested permission android.permission.CAMERA\n\tat com.android.server…",
        255,
      ),
    ).toBe(
      'java.lang.SecurityException: Package com.x has not requested permission android.permission.CAMERA',
    );
    expect(pmFailure('Failure [INSTALL_FAILED_VERSION_DOWNGRADE]', 1)).toBe(
      'Failure [INSTALL_FAILED_VERSION_DOWNGRADE]',
    );
    expect(pmFailure('', 0)).toBeNull();
    expect(pmFailure('Success', 0)).toBeNull();
  });
});
