import { createHash } from 'node:crypto';
import { readApkInfo, writeApk, type ApkInfo } from '../../util/apk.js';
import {
  isMinifiedDexMarker,
  sampleDexMarker,
  SAMPLE_ACTIVITIES,
  SAMPLE_MIN_SDK,
  SAMPLE_PACKAGE,
  SAMPLE_TARGET_SDK,
  SAMPLE_VERSION_CODE,
  SAMPLE_VERSION_NAME,
  SAMPLE_WEB_PAGE,
} from '../sample-app.js';
import type { FsNode } from './fs-node.js';
import type { MemFs } from './fs.js';
import { installToken } from './ids.js';

/** What never changes about an installed APK (shared between devices when preinstalled). */
export interface PackageInfo {
  name: string;
  versionCode: number;
  versionName: string;
  minSdk: number;
  targetSdk: number;
  label: string;
  debuggable: boolean;
  /** Fully qualified activity class names. */
  activities: readonly string[];
  launcher: string | null;
  /** Requested permissions, runtime and install-time. */
  permissions: readonly string[];
  system: boolean;
  /** The APK's path (`pm path`). */
  apkPath: string;
  /** The install directory (`codePath` in dumpsys). */
  codePath: string;
  apkBytes: Uint8Array | null;
  apkSha256: string | null;
  /** Whether the APK's dex was written by R8 (its `~~R8{…}` marker): its frames are obfuscated. */
  minified: boolean;
  /** The test runners a test APK declares (`am instrument` starts them). */
  instrumentations?: readonly { name: string; targetPackage: string }[];
  /** Fixed uid for system packages; app uids are assigned per device. */
  uid?: number;
}

/** A package on one device: the shared info plus the per-device state. */
export interface InstalledPackage {
  info: PackageInfo;
  uid: number;
  firstInstallTime: number;
  lastUpdateTime: number;
  /** Runtime permissions currently granted. */
  granted: Set<string>;
  enabled: boolean;
  /** Force-stopped and not launched since. */
  stopped: boolean;
  /** Its own locales (`cmd locale set-app-locales`, Android 13+); unset: the system's. */
  locales?: string;
}

/** Android's runtime ("dangerous") permissions: the ones `pm grant`/`pm revoke` may change. */
export const RUNTIME_PERMISSIONS: ReadonlySet<string> = new Set(
  [
    'ACCEPT_HANDOVER',
    'ACCESS_BACKGROUND_LOCATION',
    'ACCESS_COARSE_LOCATION',
    'ACCESS_FINE_LOCATION',
    'ACCESS_MEDIA_LOCATION',
    'ACTIVITY_RECOGNITION',
    'ADD_VOICEMAIL',
    'ANSWER_PHONE_CALLS',
    'BLUETOOTH_ADVERTISE',
    'BLUETOOTH_CONNECT',
    'BLUETOOTH_SCAN',
    'BODY_SENSORS',
    'BODY_SENSORS_BACKGROUND',
    'CALL_PHONE',
    'CAMERA',
    'GET_ACCOUNTS',
    'NEARBY_WIFI_DEVICES',
    'POST_NOTIFICATIONS',
    'READ_CALENDAR',
    'READ_CALL_LOG',
    'READ_CONTACTS',
    'READ_EXTERNAL_STORAGE',
    'READ_MEDIA_AUDIO',
    'READ_MEDIA_IMAGES',
    'READ_MEDIA_VIDEO',
    'READ_MEDIA_VISUAL_USER_SELECTED',
    'READ_PHONE_NUMBERS',
    'READ_PHONE_STATE',
    'READ_SMS',
    'RECEIVE_MMS',
    'RECEIVE_SMS',
    'RECEIVE_WAP_PUSH',
    'RECORD_AUDIO',
    'SEND_SMS',
    'USE_SIP',
    'UWB_RANGING',
    'WRITE_CALENDAR',
    'WRITE_CALL_LOG',
    'WRITE_CONTACTS',
    'WRITE_EXTERNAL_STORAGE',
  ].map((p) => `android.permission.${p}`),
);

/** Install-time permissions the framework knows (anything else that is not runtime is "unknown"). */
const KNOWN_NORMAL = new Set(
  [
    'INTERNET',
    'ACCESS_NETWORK_STATE',
    'ACCESS_WIFI_STATE',
    'VIBRATE',
    'WAKE_LOCK',
    'FOREGROUND_SERVICE',
    'RECEIVE_BOOT_COMPLETED',
    'SCHEDULE_EXACT_ALARM',
    'USE_BIOMETRIC',
    'NFC',
    'CHANGE_WIFI_STATE',
    'REQUEST_INSTALL_PACKAGES',
    'SYSTEM_ALERT_WINDOW',
    'QUERY_ALL_PACKAGES',
  ].map((p) => `android.permission.${p}`),
);

/** True when the framework defines this permission. */
export function isKnownPermission(p: string): boolean {
  return RUNTIME_PERMISSIONS.has(p) || KNOWN_NORMAL.has(p);
}

export const LAUNCHER_PACKAGE = 'com.google.android.apps.nexuslauncher';
export const LAUNCHER_ACTIVITY = 'com.google.android.apps.nexuslauncher.NexusLauncherActivity';
export const SETTINGS_PACKAGE = 'com.android.settings';
export const CHROME_PACKAGE = 'com.android.chrome';
export const ADB_KEYBOARD_PACKAGE = 'com.android.adbkeyboard';
export const SYSTEMUI_PACKAGE = 'com.android.systemui';
export const GMS_PACKAGE = 'com.google.android.gms';
export const SAMPLE_PERMISSIONS: readonly string[] = [
  'android.permission.INTERNET',
  'android.permission.ACCESS_NETWORK_STATE',
  'android.permission.CAMERA',
  'android.permission.ACCESS_FINE_LOCATION',
  'android.permission.ACCESS_COARSE_LOCATION',
  'android.permission.POST_NOTIFICATIONS',
];

function systemPackage(
  name: string,
  apkPath: string,
  label: string,
  opts: {
    uid?: number;
    activities?: string[];
    launcher?: string;
    versionName?: string;
    versionCode?: number;
    permissions?: string[];
  } = {},
): PackageInfo {
  return {
    name,
    versionCode: opts.versionCode ?? 34,
    versionName: opts.versionName ?? '14',
    minSdk: 34,
    targetSdk: 34,
    label,
    debuggable: false,
    activities: opts.activities ?? [],
    launcher: opts.launcher ?? null,
    permissions: opts.permissions ?? [],
    system: true,
    apkPath,
    codePath: apkPath.slice(0, apkPath.lastIndexOf('/')),
    apkBytes: null,
    apkSha256: null,
    minified: false,
    uid: opts.uid,
  };
}

/** The system packages every simulated device ships with (immutable, shared). */
export const SYSTEM_PACKAGES: readonly PackageInfo[] = [
  systemPackage('android', '/system/framework/framework-res.apk', 'Android System', { uid: 1000 }),
  systemPackage('com.android.shell', '/system/priv-app/Shell/Shell.apk', 'Shell', { uid: 2000 }),
  systemPackage(
    'com.android.providers.settings',
    '/system/priv-app/SettingsProvider/SettingsProvider.apk',
    'Settings Storage',
    { uid: 1000 },
  ),
  systemPackage('com.android.phone', '/system/priv-app/TeleService/TeleService.apk', 'Phone Services', {
    uid: 1001,
  }),
  systemPackage(SYSTEMUI_PACKAGE, '/system_ext/priv-app/SystemUIGoogle/SystemUIGoogle.apk', 'System UI', {
    uid: 10120,
  }),
  systemPackage(SETTINGS_PACKAGE, '/system_ext/priv-app/SettingsGoogle/SettingsGoogle.apk', 'Settings', {
    uid: 1000,
    activities: [
      'com.android.settings.Settings',
      'com.android.settings.SubSettings',
      'com.android.settings.applications.InstalledAppDetails',
    ],
    launcher: 'com.android.settings.Settings',
  }),
  systemPackage(
    LAUNCHER_PACKAGE,
    '/system_ext/priv-app/NexusLauncherRelease/NexusLauncherRelease.apk',
    'Pixel Launcher',
    {
      uid: 10110,
      activities: [LAUNCHER_ACTIVITY],
    },
  ),
  systemPackage(
    'com.google.android.permissioncontroller',
    '/apex/com.android.permission/priv-app/GooglePermissionController/GooglePermissionController.apk',
    'Permission controller',
    {
      uid: 10125,
      activities: ['com.android.permissioncontroller.permission.ui.GrantPermissionsActivity'],
    },
  ),
  systemPackage(
    'com.google.android.inputmethod.latin',
    '/product/app/LatinIMEGooglePrebuilt/LatinIMEGooglePrebuilt.apk',
    'Gboard',
    {
      uid: 10115,
      versionName: '13.6.08.593161388',
      versionCode: 138740000,
    },
  ),
  systemPackage(
    GMS_PACKAGE,
    '/product/priv-app/PrebuiltGmsCore/PrebuiltGmsCore.apk',
    'Google Play services',
    {
      uid: 10130,
      versionName: '24.06.13 (190400-605809897)',
      versionCode: 240613038,
    },
  ),
  systemPackage('com.android.vending', '/product/priv-app/Phonesky/Phonesky.apk', 'Google Play Store', {
    uid: 10135,
    versionName: '39.5.24-31 [0] [PR] 605814484',
    versionCode: 83952430,
    activities: ['com.android.vending.AssetBrowserActivity'],
    launcher: 'com.android.vending.AssetBrowserActivity',
  }),
  systemPackage(CHROME_PACKAGE, '/product/app/Chrome/Chrome.apk', 'Chrome', {
    uid: 10140,
    versionName: '121.0.6167.164',
    versionCode: 616716434,
    activities: ['com.google.android.apps.chrome.Main', 'org.chromium.chrome.browser.ChromeTabbedActivity'],
    launcher: 'com.google.android.apps.chrome.Main',
  }),
];

/** The sample app's preinstalled APK, built once per process. */
let sampleApk: { bytes: Uint8Array; sha256: string } | null = null;

/** Bytes and sha256 of the preinstalled sample APK. */
export function sampleApkBytes(): { bytes: Uint8Array; sha256: string } {
  if (sampleApk === null) {
    const bytes = writeApk({
      packageName: SAMPLE_PACKAGE,
      versionCode: SAMPLE_VERSION_CODE,
      versionName: SAMPLE_VERSION_NAME,
      minSdk: SAMPLE_MIN_SDK,
      targetSdk: SAMPLE_TARGET_SDK,
      label: 'Droidbus Sample',
      activities: SAMPLE_ACTIVITIES.map((name, i) => ({
        name,
        launcher: i === 0,
        exported: i === 0 || name.endsWith('.WebActivity'),
      })),
      // The WebActivity's page, where AGP packages assets.
      extraEntries: [{ name: 'assets/web/sign-in.html', data: SAMPLE_WEB_PAGE }],
      permissions: [...SAMPLE_PERMISSIONS],
      // The preinstalled sample is its release build: minified by R8.
      dexMarker: sampleDexMarker(true, SAMPLE_MIN_SDK),
    });
    sampleApk = { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  }
  return sampleApk;
}

/** The ADBKeyBoard IME's APK identity (a user-installed app, as on real test devices). */
const ADB_KEYBOARD: Omit<PackageInfo, 'apkPath' | 'codePath'> = {
  name: ADB_KEYBOARD_PACKAGE,
  versionCode: 2,
  versionName: '2.0',
  minSdk: 16,
  targetSdk: 30,
  label: 'ADB Keyboard',
  debuggable: false,
  activities: [],
  launcher: null,
  permissions: [],
  system: false,
  apkBytes: null,
  apkSha256: null,
  minified: false,
};

/** The install directory and APK path for a package installed on a device (`/data/app/~~…==/PKG-…==`). */
export function installPaths(
  serial: string,
  pkg: string,
  installCount: number,
): { codePath: string; apkPath: string } {
  const codePath = `/data/app/~~${installToken(`${serial}/${pkg}/${installCount}/outer`)}==/${pkg}-${installToken(`${serial}/${pkg}/${installCount}/inner`)}==`;
  return { codePath, apkPath: `${codePath}/base.apk` };
}

/** The third-party packages preinstalled on a device: the sample app and ADBKeyBoard. */
export function preinstalledUserPackages(serial: string): PackageInfo[] {
  const sample = sampleApkBytes();
  const samplePaths = installPaths(serial, SAMPLE_PACKAGE, 0);
  const kbPaths = installPaths(serial, ADB_KEYBOARD_PACKAGE, 0);
  return [
    { ...ADB_KEYBOARD, ...kbPaths },
    {
      name: SAMPLE_PACKAGE,
      versionCode: SAMPLE_VERSION_CODE,
      versionName: SAMPLE_VERSION_NAME,
      minSdk: SAMPLE_MIN_SDK,
      targetSdk: SAMPLE_TARGET_SDK,
      label: 'Droidbus Sample',
      debuggable: false,
      activities: SAMPLE_ACTIVITIES,
      launcher: SAMPLE_ACTIVITIES[0],
      permissions: SAMPLE_PERMISSIONS,
      system: false,
      ...samplePaths,
      apkBytes: sample.bytes,
      apkSha256: sample.sha256,
      minified: true,
    },
  ];
}

/** Why an APK could not be installed, as `pm install` words it after `Failure [`. */
export class InstallError extends Error {}

/** Package info for APK bytes about to be installed on a device. Throws InstallError. */
export function packageFromApk(
  bytes: Uint8Array,
  serial: string,
  installCount: number,
  stagedPath: string,
): PackageInfo {
  let info: ApkInfo;
  try {
    info = readApkInfo(bytes);
  } catch (err) {
    throw new InstallError(
      `INSTALL_PARSE_FAILED_NOT_APK: Failed parse during installPackageLI: ${stagedPath}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const paths = installPaths(serial, info.packageName, installCount);
  return {
    name: info.packageName,
    versionCode: info.versionCode,
    versionName: info.versionName ?? '',
    minSdk: info.minSdk,
    targetSdk: info.targetSdk,
    label: info.label ?? info.packageName,
    debuggable: info.debuggable,
    activities: info.activities,
    launcher: info.launchableActivity,
    permissions: info.permissions,
    system: false,
    ...paths,
    apkBytes: bytes,
    apkSha256: createHash('sha256').update(bytes).digest('hex'),
    minified: isMinifiedDexMarker(info.dexMarker),
    instrumentations: info.instrumentations,
  };
}

/** `pkg/.Cls` when the class lives in the package, else `pkg/full.Cls` (ComponentName.flattenToShortString). */
export function shortComponent(pkg: string, cls: string): string {
  return cls.startsWith(pkg + '.') ? `${pkg}/${cls.slice(pkg.length)}` : `${pkg}/${cls}`;
}

/** Puts a user app's APK into /data/app (readable by the shell user, like real base.apk files). */
export function putPackageFiles(fs: MemFs, info: PackageInfo): void {
  if (info.system) {
    return;
  }
  const dir = (): FsNode => ({
    type: 'dir',
    perm: 0o775,
    uid: 1000,
    gid: 1000,
    mtimeMs: Date.now(),
    ino: 0,
    children: new Map(),
  });
  fs.put(info.codePath.slice(0, info.codePath.lastIndexOf('/')), dir());
  fs.put(info.codePath, dir());
  fs.put(info.apkPath, {
    type: 'file',
    perm: 0o644,
    uid: 1000,
    gid: 1000,
    mtimeMs: Date.now(),
    ino: 0,
    data: info.apkBytes ?? new Uint8Array(0),
  });
}

/** Removes a user app's /data/app directory. */
export function deletePackageFiles(fs: MemFs, info: PackageInfo): void {
  if (info.system) {
    return;
  }
  const outer = info.codePath.slice(0, info.codePath.lastIndexOf('/'));
  fs.tryResolve('/data/app', true)?.node.children?.delete(outer.slice('/data/app/'.length));
}

/**
 * A package a recording showed but the model lacks, as a user app with what little is known: its
 * name; version code 0, so any APK of it installs over it; no APK bytes, no activities.
 */
export function recordedPackageInfo(serial: string, name: string, targetSdk: number): PackageInfo {
  return {
    name,
    versionCode: 0,
    versionName: '0',
    minSdk: 21,
    targetSdk,
    label: name,
    debuggable: false,
    activities: [],
    launcher: null,
    permissions: [],
    system: false,
    ...installPaths(serial, name, 0),
    apkBytes: null,
    apkSha256: null,
    minified: false,
  };
}
