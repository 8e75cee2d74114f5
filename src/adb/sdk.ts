import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { executableNames, isExecutable, which } from '../util/which.js';

/** The Android SDK's default install folder on this platform (where Android Studio puts it). */
export function defaultSdkLocations(): string[] {
  const home = os.homedir();
  switch (process.platform) {
    case 'darwin':
      return [path.join(home, 'Library', 'Android', 'sdk')];
    case 'win32': {
      const local = process.env['LOCALAPPDATA'] ?? path.join(home, 'AppData', 'Local');
      return [path.join(local, 'Android', 'Sdk')];
    }
    default:
      // Android Studio's folder, and Debian/Ubuntu's android-sdk package.
      return [path.join(home, 'Android', 'Sdk'), path.join(home, 'Android', 'sdk'), '/usr/lib/android-sdk'];
  }
}

/** `sdk.dir` from a project's local.properties (with Java properties escapes undone), or null. */
export function sdkDirFromLocalProperties(projectRoot: string): string | null {
  const file = path.join(projectRoot, 'local.properties');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*sdk\.dir\s*[=:]\s*(.*)$/.exec(line);
    if (m?.[1]) {
      return m[1].trim().replace(/\\(.)/g, '$1');
    }
  }
  return null;
}

export interface SdkLocation {
  path: string | null;
  source: 'ANDROID_HOME' | 'ANDROID_SDK_ROOT' | 'local.properties' | 'default_location' | null;
  /** Each place looked at, with why it was not used. */
  tried: string[];
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Finds the Android SDK: ANDROID_HOME, ANDROID_SDK_ROOT, the project's local.properties (only when
 * the project is trusted: an untrusted project must not choose paths), then the default location.
 */
export function locateSdk(projectRoot: string | null, trusted: boolean): SdkLocation {
  const tried: string[] = [];
  const candidates: [SdkLocation['source'], string | null | undefined][] = [
    ['ANDROID_HOME', process.env['ANDROID_HOME']],
    ['ANDROID_SDK_ROOT', process.env['ANDROID_SDK_ROOT']],
  ];
  if (projectRoot) {
    if (trusted) {
      candidates.push(['local.properties', sdkDirFromLocalProperties(projectRoot)]);
    } else if (sdkDirFromLocalProperties(projectRoot)) {
      tried.push('local.properties: ignored because the project is not trusted');
    }
  }
  for (const loc of defaultSdkLocations()) {
    candidates.push(['default_location', loc]);
  }
  for (const [source, dir] of candidates) {
    if (!dir) {
      if (source !== 'default_location' && source !== 'local.properties') {
        tried.push(`${source}: not set`);
      }
      continue;
    }
    if (isDir(dir)) {
      return { path: dir, source, tried };
    }
    tried.push(`${source}: ${dir} is not a directory`);
  }
  return { path: null, source: null, tried };
}

function platformToolsAdb(sdk: string): string | null {
  for (const name of executableNames('adb')) {
    const candidate = path.join(sdk, 'platform-tools', name);
    if (existsSync(candidate) && isExecutable(candidate)) {
      return candidate;
    }
  }
  return null;
}

/**
 * The adb a user expects: the given SDK's platform-tools adb (the health check passes the SDK it
 * found); else ANDROID_HOME's, ANDROID_SDK_ROOT's, adb on PATH, then the default SDK folders'.
 */
export function locateAdb(sdkPath: string | null = null): string | null {
  const fromSdk = sdkPath ? platformToolsAdb(sdkPath) : null;
  if (fromSdk) {
    return fromSdk;
  }
  for (const key of ['ANDROID_HOME', 'ANDROID_SDK_ROOT']) {
    const dir = process.env[key];
    const found = dir ? platformToolsAdb(dir) : null;
    if (found) {
      return found;
    }
  }
  const onPath = which('adb');
  if (onPath) {
    return onPath;
  }
  for (const dir of defaultSdkLocations()) {
    const found = platformToolsAdb(dir);
    if (found) {
      return found;
    }
  }
  return null;
}

/** The SDK's emulator binary (`<sdk>/emulator/emulator`, `emulator.exe` on Windows); null when absent. */
export function locateEmulator(sdkPath: string | null): string | null {
  if (sdkPath === null) {
    return null;
  }
  // On Windows only names with an extension run (the SDK ships emulator.exe).
  const names = process.platform === 'win32' ? executableNames('emulator').slice(1) : ['emulator'];
  for (const name of names) {
    const candidate = path.join(sdkPath, 'emulator', name);
    if (existsSync(candidate) && isExecutable(candidate)) {
      return candidate;
    }
  }
  return null;
}
