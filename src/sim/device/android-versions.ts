/**
 * Every way the simulated device differs by Android version, in one table: what changed, the API
 * level it changed at, and the evidence. The model asks `since(sdk, change)` and never compares an
 * API level itself (tests/guards/sim-evidence.test.ts fails on a bare `sdk >= NN` outside this file),
 * so a version difference is found, cited and corrected here.
 */

interface VersionChange {
  /** The first API level that behaves the new way. */
  readonly since: number;
  /** What a device of that level or later does. */
  readonly what: string;
  /** Where that is known from: an AOSP path, a capture in the repo, a public log. */
  readonly evidence: string;
}

export const CHANGES = {
  appLocales: {
    since: 33,
    what: "an app's own languages: the locale service and `cmd locale set-app-locales` / `get-app-locales`",
    evidence:
      'frameworks/base/services/core/java/com/android/server/locales/LocaleManagerShellCommand.java (Android 13)',
  },
  windowUser: {
    since: 17,
    what: 'window names carry their user (`Window{hash u0 title}`); before, `paused=` and no user',
    evidence:
      'frameworks/base/services/java/com/android/server/wm/WindowState.java toString (multi-user came in 4.2); captures in src/actors/device/ui/window-headers.test.ts',
  },
  shellV2: {
    since: 24,
    what: 'adbd advertises the shell_v2 and cmd features',
    evidence: 'packages/modules/adb transport.cpp supported_features (Android 7.0)',
  },
  statV2: {
    since: 28,
    what: 'adbd advertises stat_v2',
    evidence: 'packages/modules/adb transport.cpp (Android 9)',
  },
  lsV2: {
    since: 29,
    what: 'adbd advertises ls_v2',
    evidence: 'packages/modules/adb transport.cpp, "adb: add ls_v2" (b/122955521, Android 10)',
  },
  dontSuppressAccessibility: {
    since: 24,
    what: "an instrumentation's UiAutomation may keep accessibility services running",
    evidence:
      'UiAutomation.FLAG_DONT_SUPPRESS_ACCESSIBILITY_SERVICES (API 24); appium-uiautomator2-server ServerInstrumentation.setAccessibilityServiceState reads it on 7+',
  },
  protectedBroadcastDenied: {
    since: 24,
    what: 'the shell (uid 2000) may not send a protected broadcast: Permission Denial',
    evidence:
      'frameworks/base/services/core/java/com/android/server/am/ActivityManagerService.java broadcastIntentLocked',
  },
  foregroundServiceStart: {
    since: 26,
    what: "Appium Settings' start posts its foreground service's notification",
    evidence:
      'io.appium.settings ForegroundService.onStartCommand calls startForeground on Android 8+ (background execution limits)',
  },
  toyboxPs: {
    since: 26,
    what: "`ps` is toybox's (it answers `--help`); before, toolbox's",
    evidence: 'system/core/shell_and_utilities/README.md: toybox ps replaced toolbox ps in Android O',
  },
  activityTaskManager: {
    since: 29,
    what: '`Displayed` lines are tagged ActivityTaskManager (ActivityManager before)',
    evidence:
      'frameworks/base/services/core/java/com/android/server/wm/ActivityMetricsLogger.java (ATMS split from AMS in Android 10); tests/fixtures/logcat captures',
  },
  preTopHosting: {
    since: 29,
    what: '`Start proc … for pre-top-activity` when a launch starts the process',
    evidence:
      'HostingRecord.HOSTING_TYPE_PRE_TOP_ACTIVITY; tests/fixtures/logcat/long-emulator-api31.txt ("for pre-top-activity")',
  },
  nextTopHosting: {
    since: 31,
    what: '`Start proc … for next-top-activity` for the activity being resumed',
    evidence:
      'HostingRecord.HOSTING_TYPE_NEXT_TOP_ACTIVITY (Android 12, ActivityTaskSupervisor.startSpecificActivity)',
  },
  gpuStats: {
    since: 29,
    what: '`dumpsys gfxinfo` prints GPU percentiles and a GPU histogram',
    evidence: 'frameworks/base/libs/hwui/ProfileData.cpp dump (Android 10)',
  },
  toastBySystemUi: {
    since: 30,
    what: "a text toast's window belongs to SystemUI, not to the app",
    evidence:
      'NotificationManagerService.enqueueTextToast → SystemUI ToastUI (Android 11, "Text toasts are rendered by SystemUI")',
  },
  exitInfo: {
    since: 30,
    what: '`dumpsys activity exit-info` lists ApplicationExitInfo records',
    evidence: 'android.app.ApplicationExitInfo (API 30); AppExitInfoTracker.dumpHistoryProcessExitInfo',
  },
  airplaneModeCommand: {
    since: 30,
    what: '`cmd connectivity airplane-mode` exists',
    evidence: 'ConnectivityService.ShellCmd "airplane-mode" (Android 11)',
  },
  jankLegacy: {
    since: 31,
    what: '`dumpsys gfxinfo` prints `Janky frames (legacy)` and the frame-deadline lines',
    evidence: 'frameworks/base/libs/hwui/JankTracker.cpp dumpData (Android 12)',
  },
  screencapColorSpace: {
    since: 28,
    what: "raw `screencap`'s header is 16 bytes (width, height, format, colour space); 12 before",
    evidence: 'frameworks/base/cmds/screencap/screencap.cpp (the dataspace word came in Android 9)',
  },
  packageUpdatedReason: {
    since: 33,
    what: 'an app killed by its own update exits with REASON_PACKAGE_UPDATED (before: USER_REQUESTED, subreason PACKAGE_UPDATE)',
    evidence: 'ApplicationExitInfo.REASON_PACKAGE_UPDATED (API 33)',
  },
  installTimePerUser: {
    since: 33,
    what: "`dumpsys package` prints firstInstallTime in each user's section, with installReason",
    evidence:
      "PackageUserState's firstInstallTime (Android 13), dumped in the user's section by PackageManagerService; tests/fixtures/logcat/dumpsys-package-samsung.txt shows the older package-level line",
  },
  inputDeviceOrientation: {
    since: 33,
    what: "`dumpsys input`'s orientation line is `InputDeviceOrientation: N` (`SurfaceOrientation: N` before)",
    evidence:
      'frameworks/native/services/inputflinger/reader/mapper/TouchInputMapper.cpp dump; MaaFramework DeviceInfo.cpp records both from real devices',
  },
  orientationRotationNames: {
    since: 35,
    what: '`InputDeviceOrientation: Rotation90`: the orientation named, not numbered',
    evidence:
      'TouchInputMapper.cpp dump via ftl::enum_string(ui::Rotation) (Android 15); MaaFramework DeviceInfo.cpp',
  },
  displayedForUser: {
    since: 34,
    what: '`Displayed PKG/CLS for user 0: +571ms`',
    evidence: 'ActivityMetricsLogger.logAppDisplayed (Android 14); captures of API 34 emulators',
  },
  logcatReadable: {
    since: 34,
    what: '`logcat -g` says `N consumed, M readable` (before: `N consumed`)',
    evidence:
      'a OnePlus 12 on ColorOS 16 prints the new form (quoted in public code); which release split the two is not known from captures — 34 is a guess',
  },
  packageAppId: {
    since: 36,
    what: '`dumpsys package` prints `appId=` where earlier releases print `userId=`',
    evidence:
      "a Baklava dump quoted in Perfetto's DumpsysPackageParser; tests/fixtures/logcat/dumpsys-package-samsung.txt",
  },
  locationProvidersAsIs: {
    since: 31,
    what: '`settings put secure location_providers_allowed` stores its value as given; before, the settings provider read it as `+gps,-network` updates of the enabled list and stored nothing else',
    evidence:
      'frameworks/base packages/SettingsProvider SettingsProvider.java updateLocationProvidersAllowedLocked (Android 10/11: a comma list of +/- updates, any other input changes nothing); the release that stopped it, 31, is the one issue 80 reports from a device',
  },
} as const satisfies Record<string, VersionChange>;

export type AndroidChange = keyof typeof CHANGES;

/** Whether a device of API level `sdk` behaves as `change` describes. */
export function since(sdk: number, change: AndroidChange): boolean {
  return sdk >= CHANGES[change].since;
}

/**
 * `ro.build.version.release` by API level, for a profile that recorded the SDK but not the release
 * (developer.android.com, "API levels" in the Android version history; 12L is still "12").
 */
export const RELEASE_BY_SDK: Readonly<Record<number, string>> = {
  16: '4.1',
  17: '4.2',
  18: '4.3',
  19: '4.4',
  21: '5.0',
  22: '5.1',
  23: '6.0',
  24: '7.0',
  25: '7.1.1',
  26: '8.0.0',
  27: '8.1.0',
  28: '9',
  29: '10',
  30: '11',
  31: '12',
  32: '12',
  33: '13',
  34: '14',
  35: '15',
  36: '16',
};

/** The adb features a device of this SDK advertises when its profile did not record them. */
export function featuresForSdk(sdk: number): string[] {
  return [
    ...(since(sdk, 'shellV2') ? ['shell_v2', 'cmd'] : []),
    ...(since(sdk, 'statV2') ? ['stat_v2'] : []),
    ...(since(sdk, 'lsV2') ? ['ls_v2'] : []),
  ];
}
