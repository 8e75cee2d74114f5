import type { Device } from '../device.js';
import { hexId } from '../ids.js';
import { appIdName } from '../lifecycle.js';
import { LAUNCHER_PACKAGE, shortComponent, SYSTEMUI_PACKAGE } from '../packages.js';
import { ADB_KEYBOARD_IME, GBOARD_IME } from '../settings.js';
import type { ActivityRecord, Task } from '../ui/ui-model.js';
import { loadedActivity } from '../ui/ui-state.js';
import { walk, type ViewNode } from '../ui/view.js';
import { since } from '../android-versions.js';

interface WindowInfo {
  title: string;
  pkg: string;
  uid: number;
  type: string;
  frame: [number, number, number, number];
  visible: boolean;
  token: string;
  taskId: number;
}

/** `ActivityRecord{8f1e2d3 u0 pkg/.Cls t12}`. */
export function activityRecord(rec: ActivityRecord, taskId: number): string {
  return `ActivityRecord{${rec.hash} u0 ${shortComponent(rec.pkg, rec.cls)} t${taskId}}`;
}

/** Window types by name, as the OEM header form prints them (WindowManager.LayoutParams numbers). */
const TYPE_NUMBER: Readonly<Record<string, number>> = {
  BASE_APPLICATION: 1,
  STATUS_BAR: 2000,
  TOAST: 2005,
  SYSTEM_DIALOG: 2008,
  INPUT_METHOD: 2011,
  WALLPAPER: 2013,
  NAVIGATION_BAR: 2019,
  NOTIFICATION_SHADE: 2040,
};

/**
 * How this build names a window (frameworks/base/services/java/com/android/server/wm/WindowState.java,
 * toString): Android 4.0–4.1 without a user and with `paused=` (`"Window{" + hash + " " + title +
 * " paused=" + paused + "}"`); 4.2 (API 17, when multi-user came) on with the user, `u0`; a Vivo build
 * adds the window's type number in the braces (reported from a device by issue 22: no public capture,
 * so the exact spacing is the report's). Each form's real examples: src/actors/device/ui/window-headers.test.ts.
 */
function windowName(dev: Device, w: Pick<WindowInfo, 'title' | 'type'>): string {
  const hash = hexId(w.title + w.type);
  if (!since(dev.sdk, 'windowUser')) {
    return `Window{${hash} ${w.title} paused=false}`;
  }
  if (/^vivo$/i.test(dev.prop('ro.product.manufacturer') ?? '')) {
    return `Window{${hash} u0 ${w.title} type=${TYPE_NUMBER[w.type] ?? 1}}`;
  }
  return `Window{${hash} u0 ${w.title}}`;
}

/**
 * A toast showing now, as its own window of type TOAST (WindowManager.LayoutParams.TYPE_TOAST, 2005).
 * From Android 11 an app's text toast is drawn by SystemUI (AOSP
 * frameworks/base/packages/SystemUI/src/com/android/systemui/toast/ToastUI.java, which Toast.show()
 * reaches through NotificationManagerService.enqueueTextToast), so the window's package is SystemUI's;
 * before it, the app's. The frame is modelled, not measured: bottom-centred as Toast's default gravity
 * (config_toastDefaultGravity, BOTTOM | CENTER_HORIZONTAL) puts it.
 */
function toastWindow(dev: Device): WindowInfo | null {
  const toast = dev.ui.toast;
  if (toast === null || Date.now() >= toast.until) {
    return null;
  }
  const d = dev.display();
  const dp = (v: number): number => Math.round((v * d.density) / 160);
  const pkg = since(dev.sdk, 'toastBySystemUi') ? SYSTEMUI_PACKAGE : toast.pkg;
  return {
    title: 'Toast',
    pkg,
    uid: dev.uidOf(pkg),
    type: 'TOAST',
    frame: [dp(48), d.height - dp(160), d.width - dp(48), d.height - dp(112)],
    visible: true,
    token: 'WindowToken{toast}',
    taskId: -1,
  };
}

/** The windows on screen, top to bottom (what `dumpsys window windows` lists). */
export function windowList(dev: Device): WindowInfo[] {
  const d = dev.display();
  const dp = (v: number): number => Math.round((v * d.density) / 160);
  const full: [number, number, number, number] = [0, 0, d.width, d.height];
  const out: WindowInfo[] = [];
  const imeId = dev.settings.get('secure', 'default_input_method') ?? GBOARD_IME;
  const imePkg = imeId.slice(0, imeId.indexOf('/'));
  if (dev.ui.imeShown) {
    out.push({
      title: 'InputMethod',
      pkg: imePkg,
      uid: dev.uidOf(imePkg),
      type: 'INPUT_METHOD',
      frame: [0, Math.round(d.height * 0.6), d.width, d.height],
      visible: true,
      token: 'WindowToken{ime}',
      taskId: -1,
    });
  }
  out.push({
    title: 'NavigationBar0',
    pkg: SYSTEMUI_PACKAGE,
    uid: dev.uidOf(SYSTEMUI_PACKAGE),
    type: 'NAVIGATION_BAR',
    frame: [0, d.height - dp(48), d.width, d.height],
    visible: true,
    token: 'WindowToken{nav}',
    taskId: -1,
  });
  out.push({
    title: 'StatusBar',
    pkg: SYSTEMUI_PACKAGE,
    uid: dev.uidOf(SYSTEMUI_PACKAGE),
    type: 'STATUS_BAR',
    frame: [0, 0, d.width, dp(24)],
    visible: true,
    token: 'WindowToken{status}',
    taskId: -1,
  });
  out.push({
    title: 'NotificationShade',
    pkg: SYSTEMUI_PACKAGE,
    uid: dev.uidOf(SYSTEMUI_PACKAGE),
    type: 'NOTIFICATION_SHADE',
    frame: full,
    visible: dev.ui.shadeOpen,
    token: 'WindowToken{shade}',
    taskId: -1,
  });
  const toast = toastWindow(dev);
  if (toast !== null) {
    out.push(toast);
  }
  if (dev.ui.dialog !== null) {
    const dl = dev.ui.dialog;
    out.push({
      title: dl.title,
      pkg: dl.pkg,
      uid: dev.uidOf(dl.pkg),
      type: 'SYSTEM_DIALOG',
      frame: [
        dp(24),
        Math.round(d.height / 2 - dp(110)),
        d.width - dp(24),
        Math.round(d.height / 2 + dp(110)),
      ],
      visible: true,
      token: 'WindowToken{dialog}',
      taskId: -1,
    });
  }
  if (dev.ui.loaded !== null) {
    const title = loadedActivity(dev.ui.loaded);
    const pkg = title.slice(0, title.indexOf('/'));
    out.push({
      title,
      pkg,
      uid: dev.uidOf(pkg),
      type: 'BASE_APPLICATION',
      frame: full,
      visible: true,
      token: 'WindowToken{recorded}',
      taskId: 99,
    });
  }
  const tasks = [...dev.ui.tasks].reverse();
  tasks.forEach((task: Task, i) => {
    const rec = task.activities[task.activities.length - 1];
    if (rec === undefined) {
      return;
    }
    out.push({
      title: `${rec.pkg}/${rec.cls}`,
      pkg: rec.pkg,
      uid: dev.uidOf(rec.pkg),
      type: 'BASE_APPLICATION',
      frame: full,
      visible: i === 0 && dev.ui.loaded === null,
      token: activityRecord(rec, task.id),
      taskId: task.id,
    });
  });
  out.push({
    title: 'com.android.systemui.wallpapers.ImageWallpaper',
    pkg: SYSTEMUI_PACKAGE,
    uid: dev.uidOf(SYSTEMUI_PACKAGE),
    type: 'WALLPAPER',
    frame: full,
    visible: dev.ui.top().pkg === LAUNCHER_PACKAGE,
    token: 'WallpaperWindowToken{wallpaper}',
    taskId: -1,
  });
  return out;
}

function rect(r: [number, number, number, number]): string {
  return `[${r[0]},${r[1]}][${r[2]},${r[3]}]`;
}

function focusLines(dev: Device): string[] {
  const top = dev.ui.top();
  const task = dev.ui.topTask();
  const focus = dev.ui.shadeOpen
    ? windowName(dev, { title: 'NotificationShade', type: 'NOTIFICATION_SHADE' })
    : dev.ui.dialog !== null
      ? windowName(dev, { title: dev.ui.dialog.title, type: 'SYSTEM_DIALOG' })
      : dev.ui.loaded !== null
        ? `Window{${hexId('recorded')} u0 ${loadedActivity(dev.ui.loaded)}}`
        : windowName(dev, { title: `${top.pkg}/${top.cls}`, type: 'BASE_APPLICATION' });
  return [`  mCurrentFocus=${focus}`, `  mFocusedApp=${activityRecord(top, task.id)}`];
}

/** `dumpsys window windows`. */
export function dumpWindows(dev: Device): string {
  const d = dev.display();
  const lines = ['WINDOW MANAGER WINDOWS (dumpsys window windows)'];
  windowList(dev).forEach((w, i) => {
    lines.push(
      `  Window #${i} ${windowName(dev, w)}:`,
      `    mDisplayId=0 rootTaskId=${w.taskId < 0 ? 1 : w.taskId} mSession=Session{${hexId(w.pkg + 's')} ${w.pkg === SYSTEMUI_PACKAGE ? 1433 : 4000 + (w.uid % 1000)}:u0a${w.uid % 10000}} mClient=android.os.BinderProxy@${hexId(w.title + 'c')}`,
      `    mOwnerUid=${w.uid} showForAllUsers=${w.pkg === SYSTEMUI_PACKAGE} package=${w.pkg} appop=NONE`,
      `    mAttrs={(0,0)(fillxfill) sim={adjust=${w.type === 'BASE_APPLICATION' ? 'resize' : 'pan'}} ty=${w.type} fmt=TRANSLUCENT`,
      `      fl=${w.type === 'BASE_APPLICATION' ? 'LAYOUT_IN_SCREEN LAYOUT_INSET_DECOR SPLIT_TOUCH HARDWARE_ACCELERATED DRAWS_SYSTEM_BAR_BACKGROUNDS' : 'NOT_FOCUSABLE NOT_TOUCH_MODAL SPLIT_TOUCH HARDWARE_ACCELERATED'}}`,
      `    Requested w=${w.frame[2] - w.frame[0]} h=${w.frame[3] - w.frame[1]} mLayoutSeq=${40 + i}`,
      `    mBaseLayer=${w.type === 'BASE_APPLICATION' ? 21000 : 241000} mSubLayer=0    mToken=${w.token}`,
      `    mViewVisibility=${w.visible ? '0x0' : '0x8'} mHaveFrame=true mObscured=false`,
      `    mHasSurface=${w.visible} isReadyForDisplay()=${w.visible} mWindowRemovalAllowed=false`,
      `    Frames: parent=${rect(w.frame)} display=[0,0][${d.width},${d.height}]`,
      `    mFrame=${rect(w.frame)} last=${rect(w.frame)}`,
      `    isOnScreen=${w.visible}`,
      `    isVisible=${w.visible}`,
    );
  });
  const imeTarget = dev.ui.top();
  lines.push(
    '',
    `  mGlobalConfiguration={1.0 310mcc260mnc [en_US] ldltr sw${Math.round((Math.min(d.width, d.height) * 160) / d.density)}dp ${d.rotation % 2 === 0 ? 'port' : 'land'} finger qwerty/v/v dpad/v winConfig={ mBounds=Rect(0, 0 - ${d.width}, ${d.height}) mAppBounds=Rect(0, 0 - ${d.width}, ${d.height}) mWindowingMode=fullscreen mActivityType=undefined mRotation=ROTATION_${d.rotation * 90}} s.9}`,
    '  mHasPermanentDpad=false',
    '  mTopFocusedDisplayId=0',
    `  imeLayeringTarget in display# 0 Window{${hexId(`${imeTarget.pkg}/${imeTarget.cls}BASE_APPLICATION`)} u0 ${imeTarget.pkg}/${imeTarget.cls}}`,
    `  mInputMethodWindow=${dev.ui.imeShown ? `Window{${hexId('InputMethodINPUT_METHOD')} u0 InputMethod}` : 'null'}`,
    ...focusLines(dev),
  );
  return lines.join('\n') + '\n';
}

/** `dumpsys window displays`. */
export function dumpDisplays(dev: Device): string {
  const d = dev.display();
  const phys = [dev.identity.width, dev.identity.height];
  const dp = (v: number): number => Math.round((v * d.density) / 160);
  return (
    [
      'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)',
      `  Display: mDisplayId=0 rootTasks=${dev.ui.tasks.length}`,
      `    init=${phys[0]}x${phys[1]} ${dev.identity.density}dpi base=${d.width}x${d.height} ${d.density}dpi cur=${d.width}x${d.height} app=${d.width}x${d.height - dp(48)} rng=${Math.min(d.width, d.height)}x${Math.min(d.width, d.height) - dp(72)}-${Math.max(d.width, d.height)}x${Math.max(d.width, d.height) - dp(72)}`,
      `    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion((0,0,${d.width},${d.height}))`,
      `    mDisplayRotation=ROTATION_${d.rotation * 90}`,
      '',
      ...focusLines(dev),
    ].join('\n') + '\n'
  );
}

/** `dumpsys input_method`. */
export function dumpInputMethod(dev: Device): string {
  const cur = dev.settings.get('secure', 'default_input_method') ?? GBOARD_IME;
  const enabled = (dev.settings.get('secure', 'enabled_input_methods') ?? GBOARD_IME).split(':');
  const top = dev.ui.top();
  const lines = [
    'Current Input Method Manager state:',
    `  Input Methods: mMethodMapUpdateCount=3 mBindInstantServiceAllowed=false`,
  ];
  [GBOARD_IME, ...(dev.packages.has('com.android.adbkeyboard') ? [ADB_KEYBOARD_IME] : [])].forEach(
    (id, i) => {
      lines.push(
        `  InputMethod #${i}:`,
        `    mId=${id} mSettingsActivityName=null mIsVrOnly=false mSupportsSwitchingToNextInputMethod=false`,
        `    enabled=${enabled.includes(id)}`,
      );
    },
  );
  lines.push(
    `  mCurMethodId=${cur}`,
    `  mCurFocusedWindow=Window{${hexId(`${top.pkg}/${top.cls}BASE_APPLICATION`)} u0 ${top.pkg}/${top.cls}}`,
    `  mCurFocusedWindowSoftInputMode=STATE_UNSPECIFIED|ADJUST_RESIZE|IS_FORWARD_NAVIGATION`,
    `  mInputShown=${dev.ui.imeShown}`,
    `  mShowRequested=${dev.ui.imeShown} mShowExplicitlyRequested=false mShowForced=false`,
    '  mInFullscreenMode=false',
    `  mSystemReady=true mInteractive=${dev.ui.screenOn}`,
    // The current IME's own state, as InputMethodService.dump prints it under the service's dump
    // (frameworks/base/core/java/android/inputmethodservice/InputMethodService.java).
    `Input method service state for ${cur}:`,
    `  mViewsCreated=true`,
    `  mDecorViewVisible=${dev.ui.imeShown} mDecorViewWasVisible=${dev.ui.imeShown} mWindowVisible=${dev.ui.imeShown} mInShowWindow=false`,
    `  mInputStarted=true mInputViewStarted=${dev.ui.imeShown} mCandidatesViewStarted=false`,
    `  mShowInputRequested=${dev.ui.imeShown} mLastShowInputRequested=${dev.ui.imeShown}`,
    `  mIsInputViewShown=${dev.ui.imeShown} mStatusIcon=0`,
  );
  return lines.join('\n') + '\n';
}

function viewLine(n: ViewNode, depth: number): string {
  const [l, t, r, b] = n.bounds;
  const flags = `V${(n.flags & 16) !== 0 ? 'F' : '.'}${(n.flags & 8) !== 0 ? 'E' : '.'}D${(n.flags & 64) !== 0 ? 'V' : '.'}.${(n.flags & 4) !== 0 ? 'C' : '.'}.`;
  const id = n.id === '' ? '' : ` #${hexId(n.id)} ${n.id.replace(/^[^:]+:/, 'app:')}`;
  return `${'  '.repeat(depth)}${n.cls}{${hexId(n.cls + n.id + l + t)} ${flags} ........ ${l},${t}-${r},${b}${id}}`;
}

/** `dumpsys activity top`: the resumed activity with its view hierarchy. */
export function dumpActivityTop(dev: Device): string {
  const task = dev.ui.topTask();
  const rec = dev.ui.top();
  const pid = dev.procs.forPackage(rec.pkg)?.pid ?? 0;
  const lines = [
    `TASK ${dev.uidOf(rec.pkg)}:${rec.pkg} id=${task.id} userId=0`,
    `  ACTIVITY ${shortComponent(rec.pkg, rec.cls)} ${rec.hash} pid=${pid}`,
    `    Local Activity ${hexId(rec.hash + 'local')} State:`,
    '      mResumed=true mStopped=false mFinished=false',
    '      mIsChangingConfigurations=false',
    '    ViewRoot:',
    '      mAdded=true mRemoved=false',
    '    View Hierarchy:',
    `      DecorView@${hexId(rec.hash + 'decor')}[${rec.cls.slice(rec.cls.lastIndexOf('.') + 1)}]`,
  ];
  const tree = dev.currentTree();
  const depthOf = new Map<ViewNode, number>([[tree, 0]]);
  for (const n of walk(tree)) {
    const depth = depthOf.get(n) ?? 0;
    for (const c of n.children) {
      depthOf.set(c, depth + 1);
    }
    if (n !== tree) {
      lines.push(viewLine(n, depth + 3));
    }
  }
  return lines.join('\n') + '\n';
}

/** `dumpsys activity activities`. */
export function dumpActivities(dev: Device): string {
  const lines = [
    'ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)',
    'Display #0 (activities from top to bottom):',
  ];
  const tasks = [...dev.ui.tasks].reverse();
  tasks.forEach((task, i) => {
    const home = task.pkg === LAUNCHER_PACKAGE;
    lines.push(
      `  * Task{${hexId('task' + task.id)} #${task.id} type=${home ? 'home' : 'standard'} A=${dev.uidOf(task.pkg)}:${task.pkg} U=0 visible=${i === 0} visibleRequested=${i === 0} mode=fullscreen translucent=false sz=${task.activities.length}}`,
    );
    [...task.activities].reverse().forEach((rec, j) => {
      lines.push(`    * Hist  #${task.activities.length - 1 - j}: ${activityRecord(rec, task.id)}`);
    });
  });
  const top = dev.ui.top();
  const resumed = activityRecord(top, dev.ui.topTask().id);
  lines.push(
    '',
    `  ResumedActivity: ${resumed}`,
    `  mResumedActivity: ${resumed}`,
    `  topResumedActivity=${resumed}`,
    '',
    ...focusLines(dev),
  );
  return lines.join('\n') + '\n';
}

/**
 * `dumpsys activity processes` (the pid mappings part): every process ActivityManager started, system
 * uid ones too — ProcessRecord.toShortString names the uid by UserHandle.formatUid, `1000` for the
 * system uid and `u0a123` for an app (frameworks/base/services/core/java/com/android/server/am/
 * ProcessRecord.java; appium-adb's listAppProcessIds reads `ProcessRecord{… PID:PACKAGE/`).
 */
export function dumpProcesses(dev: Device): string {
  const lines = ['ACTIVITY MANAGER RUNNING PROCESSES (dumpsys activity processes)', '  PID mappings:'];
  for (const p of dev.procs.all()) {
    if (p.pkg !== null) {
      lines.push(
        `    PID #${p.pid}: ProcessRecord{${hexId('proc' + p.pid)} ${p.pid}:${p.name}/${appIdName(p.uid)}}`,
      );
    }
  }
  return lines.join('\n') + '\n';
}

/**
 * `dumpsys window policy` (also the first section of a bare `dumpsys window`): PhoneWindowManager's
 * state with the screen's and the keyguard's (PhoneWindowManager.dump, which ends with
 * KeyguardServiceDelegate.dump; the screen-on pair is DisplayPolicy's). Clients such as appium-adb's
 * isScreenLocked read `mScreenOnFully`, `screenState` and the keyguard monitor's `mIsShowing`.
 */
export function dumpWindowPolicy(dev: Device): string {
  const on = dev.ui.screenOn;
  return (
    'WINDOW MANAGER POLICY STATE (dumpsys window policy)\n' +
    '    mSafeMode=false mSystemReady=true mSystemBooted=true\n' +
    `    mScreenOnEarly=${on} mScreenOnFully=${on}\n` +
    '    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true\n' +
    dev.ui.lock.dump(on, '    ')
  );
}
