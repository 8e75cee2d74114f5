import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseWindowDump, summarizeWindows, windowKind } from './window-dump.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../../tests/fixtures/windows/${name}`, import.meta.url), 'utf8');

describe('dumpsys window windows', () => {
  it('sees an ANR dialog over the launcher on Android 11, and the hidden shade typed 2040', () => {
    const { windows, focused } = parseWindowDump(fixture('android11-anr-dialog-appium.txt'));
    expect(focused).toBeNull();
    expect(windows.map((w) => [w.index, w.kind, w.visible])).toEqual([
      [2, 'notification_shade', false],
      [3, 'status_bar', true],
      [4, 'system_dialog', true],
      [8, 'application', true],
    ]);
    expect(windows[0]!.type).toBe('NOTIFICATION_SHADE');
    expect(windows[2]).toMatchObject({
      title: 'Application Not Responding: com.android.systemui',
      package: 'android',
      type: 'SYSTEM_ALERT',
      frame: { left: 28, top: 671, right: 1052, bottom: 1185 },
    });
    const summary = summarizeWindows(windows);
    expect(summary.system_dialog?.title).toBe('Application Not Responding: com.android.systemui');
    expect(summary.app_window?.package).toBe('com.google.android.apps.nexuslauncher');
    expect(summary.ime_visible).toBe(false);
  });

  it('reads a hidden keyboard window on Android 12 as not covering anything', () => {
    const { windows } = parseWindowDump(fixture('android12-launcher-ime-hidden-appium.txt'));
    const ime = windows.find((w) => w.kind === 'input_method');
    expect(ime).toMatchObject({
      package: 'com.android.inputmethod.latin',
      visible: false,
      frame: { left: 0, top: 2280, right: 1080, bottom: 2280 },
    });
    expect(summarizeWindows(windows)).toMatchObject({ ime_visible: false, system_dialog: null });
  });

  it('marks the focused window from an appended mCurrentFocus line, and reads the frame= of a one-line Frames', () => {
    // The shape of Android 14 (frame inside `Frames:`), trimmed; the focus line comes from `dumpsys window displays`.
    const text = [
      'WINDOW MANAGER WINDOWS (dumpsys window windows)',
      '  Window #0 Window{ee4ee0c u0 InputMethod}:',
      '    mOwnerUid=10133 showForAllUsers=false package=com.google.android.inputmethod.latin appop=NONE',
      '    mAttrs={(0,0)(fillxwrap) gr=BOTTOM CENTER_VERTICAL sim={adjust=pan} ty=INPUT_METHOD fmt=TRANSPARENT',
      '    Frames: parent=[0,1517][1080,2400] display=[0,1517][1080,2400] frame=[0,1517][1080,2400] last=[0,1517][1080,2400] insetsChanged=false',
      '    isOnScreen=true',
      '    isVisible=true',
      '  Window #1 Window{4d0ddca u0 com.google.android.permissioncontroller/com.android.permissioncontroller.permission.ui.GrantPermissionsActivity}:',
      '    mOwnerUid=10151 showForAllUsers=false package=com.google.android.permissioncontroller appop=NONE',
      '    mAttrs={(0,0)(fillxfill) ty=BASE_APPLICATION fmt=TRANSLUCENT',
      '    Frames: parent=[0,0][1080,2400] display=[0,0][1080,2400] frame=[28,746][1052,1718] last=[28,746][1052,1718] insetsChanged=false',
      '    isVisible=true',
      '  Window #2 Window{3a9bb36 u0 com.example.app/com.example.app.MainActivity}:',
      '    mOwnerUid=10190 showForAllUsers=false package=com.example.app appop=NONE',
      '    mAttrs={(0,0)(fillxfill) ty=BASE_APPLICATION fmt=TRANSLUCENT',
      '    Frames: parent=[0,0][1080,2400] display=[0,0][1080,2400] frame=[0,0][1080,2400] last=[0,0][1080,2400] insetsChanged=false',
      '    isVisible=true',
      '  mCurrentFocus=Window{4d0ddca u0 com.google.android.permissioncontroller/com.android.permissioncontroller.permission.ui.GrantPermissionsActivity}',
      '  mFocusedApp=ActivityRecord{1 u0 com.google.android.permissioncontroller/com.android.permissioncontroller.permission.ui.GrantPermissionsActivity t9}',
    ].join('\n');
    const { windows, focused } = parseWindowDump(text);
    expect(focused).toContain('GrantPermissionsActivity');
    expect(windows.map((w) => [w.kind, w.focused])).toEqual([
      ['input_method', false],
      ['system_dialog', true],
      ['application', false],
    ]);
    expect(windows[0]!.frame).toEqual({ left: 0, top: 1517, right: 1080, bottom: 2400 });
    const s = summarizeWindows(windows);
    expect(s.ime_visible).toBe(true);
    expect(s.system_dialog?.package).toBe('com.google.android.permissioncontroller');
    expect(s.app_window?.package).toBe('com.example.app');
  });

  it('names window kinds from types, numbers and titles', () => {
    expect(windowKind('TOAST', 'Toast', 'com.x')).toBe('toast');
    expect(windowKind('INPUT_METHOD_DIALOG', 'InputMethod', 'com.x')).toBe('input_method');
    expect(windowKind('APPLICATION_OVERLAY', 'Bubble', 'com.x')).toBe('overlay');
    expect(windowKind('VOICE_INTERACTION_STARTING', 'AssistPreviewPanel', 'com.android.systemui')).toBe(
      'system',
    );
    expect(windowKind(null, 'NotificationShade', 'com.android.systemui')).toBe('notification_shade');
    expect(windowKind('1', 'a/b', 'com.x')).toBe('application');
  });

  it('reads the OEM header form that ends the title with its type: clean titles, the type from the header', () => {
    // The real Android 11 dump with its headers rewritten to the form some OEM Android 14 builds print
    // (`Window{6d67f78 u0 StatusBar type=2000 }`, reported by issue 22; no public capture was found),
    // and the `ty=` of the shade's attributes removed so the header's type is the only one.
    const real = fixture('android11-anr-dialog-appium.txt');
    const oem = real
      .replace(/^(\s*Window #\d+ Window\{[0-9a-f]+ u0 .*?)\}:$/gm, (_, head: string) =>
        head.includes('NotificationShade') ? `${head} type=2040 }:` : `${head} type=1 }:`,
      )
      .replace(' ty=2040 ', ' ');
    const before = parseWindowDump(real).windows;
    const after = parseWindowDump(oem).windows;
    expect(after.map((w) => w.title)).toEqual(before.map((w) => w.title));
    expect(after.length).toBe(before.length);
    expect(after.find((w) => w.title === 'NotificationShade')).toMatchObject({
      type: 'NOTIFICATION_SHADE',
      kind: 'notification_shade',
    });
  });
});
