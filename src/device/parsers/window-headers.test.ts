/**
 * Window headers in every form `dumpsys window windows` prints them. Each case names where its form
 * comes from: the window manager's own WindowState.toString of that release (AOSP), or a real dump
 * quoted in a public issue (the lines kept are the quoted ones, the blocks trimmed to what is read).
 */
import { describe, expect, it } from 'vitest';
import { parseWindowDump, summarizeWindows } from './window-dump.js';

const dump = (...lines: string[]): string => lines.join('\n');

describe('window headers of every release and OEM', () => {
  it('Android 4.0–4.1: no user, `paused=` before the closing brace (AOSP 4.1 WindowState.toString)', () => {
    const { windows, focused } = parseWindowDump(
      dump(
        '  Window #0 Window{41a7c2a0 StatusBar paused=false}:',
        '    mAttrs=WM.LayoutParams{(0,0)(fillx50) gr=#30 sim=#20 ty=2000 fl=#800048 fmt=-3 wanim=0x1030111}',
        '    mViewVisibility=0x0 mHaveFrame=true mObscured=false',
        '    mHasSurface=true mShownFrame=[0.0,0.0][720.0,50.0]',
        '    mFrame=[0,0][720,50] last=[0,0][720,50]',
        '  Window #1 Window{41b2e1f8 com.android.launcher/com.android.launcher2.Launcher paused=false}:',
        '    mAttrs=WM.LayoutParams{(0,0)(fillxfill) sim=#20 ty=1 fl=#1910100 pfl=0x8 wanim=0x10301e3}',
        '    mViewVisibility=0x0 mHaveFrame=true mObscured=false',
        '    mHasSurface=true mShownFrame=[0.0,0.0][720.0,1280.0]',
        '    mFrame=[0,0][720,1280] last=[0,0][720,1280]',
        '  mCurrentFocus=Window{41b2e1f8 com.android.launcher/com.android.launcher2.Launcher paused=false}',
      ),
    );
    expect(windows.map((w) => [w.title, w.type, w.kind, w.visible, w.focused])).toEqual([
      ['StatusBar', 'STATUS_BAR', 'status_bar', true, false],
      ['com.android.launcher/com.android.launcher2.Launcher', 'BASE_APPLICATION', 'application', true, true],
    ]);
    expect(focused).toBe('com.android.launcher/com.android.launcher2.Launcher');
  });

  it('Android 4.2–9: a window animating out ends in EXITING (AOSP 4.4 toString; appium/appium#5181 focus lines)', () => {
    const { windows, focused } = parseWindowDump(
      dump(
        '  Window #4 Window{43e887a8 u0 com.lookout.enterprise EXITING}:',
        '    mOwnerUid=10123 mShowToOwnerOnly=true package=com.lookout.enterprise appop=NONE',
        '    mAttrs=WM.LayoutParams{(0,0)(fillxfill) sim=#120 ty=3 fl=#81830118 pfl=0x11 wanim=0x10301e3}',
        '    mViewVisibility=0x0 mHaveFrame=true mObscured=false',
        '    mHasSurface=true mShownFrame=[0.0,0.0][1080.0,1920.0] isReadyForDisplay()=false',
        '    mFrame=[0,0][1080,1920] last=[0,0][1080,1920]',
        '  Window #5 Window{43e11790 u0 com.lookout.enterprise/com.lookout.enterprise.ui.android.activity.InviteActivationActivity}:',
        '    mOwnerUid=10123 mShowToOwnerOnly=true package=com.lookout.enterprise appop=NONE',
        '    mAttrs=WM.LayoutParams{(0,0)(fillxfill) sim=#120 ty=1 fl=#81810100 pfl=0x8 wanim=0x10301e3}',
        '    mViewVisibility=0x0 mHaveFrame=true mObscured=false',
        '    mHasSurface=true mShownFrame=[0.0,0.0][1080.0,1920.0] isReadyForDisplay()=true',
        '    mFrame=[0,0][1080,1920] last=[0,0][1080,1920]',
        '  mCurrentFocus=Window{43e11790 u0 com.lookout.enterprise/com.lookout.enterprise.ui.android.activity.InviteActivationActivity}',
      ),
    );
    expect(windows.map((w) => [w.index, w.title, w.type])).toEqual([
      [4, 'com.lookout.enterprise', 'APPLICATION_STARTING'],
      [
        5,
        'com.lookout.enterprise/com.lookout.enterprise.ui.android.activity.InviteActivationActivity',
        'BASE_APPLICATION',
      ],
    ]);
    expect(windows[1]!.focused).toBe(true);
    expect(focused).toContain('InviteActivationActivity');
  });

  it('Android 9–10: the status bar of appium/appium-desktop#1250 and the one-line Frames of S2-group/android-runner#28 (Galaxy A70)', () => {
    const { windows } = parseWindowDump(
      dump(
        '  Window #2 Window{c4cb0b6 u0 StatusBar}:',
        '    mDisplayId=0 stackId=0 mSession=Session{6eb4f3b 2389:u0a10107} mClient=android.os.BinderProxy@2af0798',
        '    mOwnerUid=10107 mShowToOwnerOnly=false package=com.android.systemui appop=NONE',
        '    mAttrs={(0,0)(fillx84) gr=TOP CENTER_VERTICAL sim={adjust=resize} layoutInDisplayCutoutMode=always ty=STATUS_BAR fmt=TRANSLUCENT',
        '    mViewVisibility=0x0 mHaveFrame=true mObscured=false',
        '    mHasSurface=true isReadyForDisplay()=true mWindowRemovalAllowed=false',
        '    mFrame=[0,0][1440,84] last=[0,0][1440,84]',
        '  Window #3 Window{a2f45c u0 StatusBar}:',
        '    mOwnerUid=10123 mShowToOwnerOnly=false package=com.android.systemui appop=NONE',
        '    mAttrs={(0,0)(fillx76) gr=TOP CENTER_VERTICAL sim={adjust=resize} ty=STATUS_BAR fmt=TRANSLUCENT',
        '    mHasSurface=true isReadyForDisplay()=true mWindowRemovalAllowed=false',
        '    Frames: containing=[0,0][1080,2400] parent=[0,0][1080,2400]',
        '    mFrame=[0,0][1080,76] last=[0,0][1080,76]',
      ),
    );
    expect(windows.map((w) => [w.title, w.package, w.kind])).toEqual([
      ['StatusBar', 'com.android.systemui', 'status_bar'],
      ['StatusBar', 'com.android.systemui', 'status_bar'],
    ]);
    expect(windows[1]!.frame).toEqual({ left: 0, top: 0, right: 1080, bottom: 76 });
  });

  it('Android 11 TV (deviant-aut/HA-androidtv11#6) and Android 13–14 (openatx/uiautomator2#952, a hidden window)', () => {
    const { windows } = parseWindowDump(
      dump(
        'WINDOW MANAGER WINDOWS (dumpsys window windows)',
        '  Window #0 Window{5c08713 u0 org.xbmc.kodi/org.xbmc.kodi.Main}:',
        '    mDisplayId=0 rootTaskId=1290 mSession=Session{40887aa 10484:u0a10087} mClient=android.os.BinderProxy@4266202',
        '    mOwnerUid=10087 showForAllUsers=false package=org.xbmc.kodi appop=NONE',
        '    mAttrs={(0,0)(fillxfill) sim={adjust=resize} ty=BASE_APPLICATION fmt=TRANSLUCENT wanim=0x1030001 preferredRefreshRate=60.000004 preferredDisplayMode=21 sysuil=true',
        '    mViewVisibility=0x0 mHaveFrame=true mObscured=false',
        '    mHasSurface=true isReadyForDisplay()=true mWindowRemovalAllowed=false',
        '  Window #25 Window{c838dbe u0 tv.danmaku.bili/tv.danmaku.bili.MainActivityV2}:',
        '    mDisplayId=0 rootTaskId=57 mSession=Session{8e5857d 8821:u0a10178} mClient=android.os.BinderProxy@1c9fc79',
        '    mOwnerUid=10178 showForAllUsers=false package=tv.danmaku.bili appop=NONE',
        '    mAttrs={(0,0)(fillxfill) sim={adjust=nothing forwardNavigation} ty=BASE_APPLICATION wanim=0x10302fd',
        '    mBaseLayer=21000 mSubLayer=0    mToken=ActivityRecord{d9b8281 u0 tv.danmaku.bili/.MainActivityV2} t57}',
        '    mViewVisibility=0x8 mHaveFrame=true mObscured=false',
      ),
    );
    expect(windows.map((w) => [w.index, w.title, w.package, w.kind, w.visible])).toEqual([
      [0, 'org.xbmc.kodi/org.xbmc.kodi.Main', 'org.xbmc.kodi', 'application', true],
      [25, 'tv.danmaku.bili/tv.danmaku.bili.MainActivityV2', 'tv.danmaku.bili', 'application', false],
    ]);
  });

  it('OEM builds that put the type in the header (Vivo, issue 22), with or without a space, before or after the title', () => {
    const { windows } = parseWindowDump(
      dump(
        '  Window #0 Window{6d67f78 u0 StatusBar type=2000}:',
        '    mOwnerUid=10095 showForAllUsers=true package=com.android.systemui appop=NONE',
        '    mViewVisibility=0x0 mHaveFrame=true mObscured=false',
        '    mHasSurface=true isReadyForDisplay()=true',
        '    Frames: parent=[0,0][1080,2408] display=[0,0][1080,2408] frame=[0,0][1080,96] last=[0,0][1080,96]',
        '  Window #1 Window{2b1e9f0 u0 InputMethod type=2011 }:',
        '    mOwnerUid=10120 showForAllUsers=false package=com.vivo.ai.ime appop=NONE',
        '    isVisible=true',
        '    Frames: parent=[0,1500][1080,2408] display=[0,1500][1080,2408] frame=[0,1500][1080,2408] last=[0,1500][1080,2408]',
        '  Window #2: Window{9c0d2aa u0 type=2040 NotificationShade}',
        '    mOwnerUid=10095 showForAllUsers=true package=com.android.systemui appop=NONE',
        '    isVisible=false',
        '  Window #3 Window{7f3e1c2 u0 com.example.app/com.example.app.MainActivity type=1}:',
        '    mOwnerUid=10190 showForAllUsers=false package=com.example.app appop=NONE',
        '    isVisible=true',
        '    Frames: parent=[0,0][1080,2408] display=[0,0][1080,2408] frame=[0,0][1080,2408] last=[0,0][1080,2408]',
      ),
    );
    expect(windows.map((w) => [w.title, w.type, w.kind])).toEqual([
      ['StatusBar', 'STATUS_BAR', 'status_bar'],
      ['InputMethod', 'INPUT_METHOD', 'input_method'],
      ['NotificationShade', 'NOTIFICATION_SHADE', 'notification_shade'],
      ['com.example.app/com.example.app.MainActivity', 'BASE_APPLICATION', 'application'],
    ]);
    const s = summarizeWindows(windows);
    expect(s.ime_visible).toBe(true);
    expect(s.app_window?.package).toBe('com.example.app');
  });
});
