/**
 * The installed apps from `pm list packages` and `dumpsys package packages` (every package's
 * section in one dump): version, enabled state, and install and update times.
 */

export interface AppEntry {
  package: string;
  version_name: string | null;
  version_code: number | null;
  enabled: boolean | null;
  system: boolean;
  first_install_time: string | null;
  last_update_time: string | null;
}

/** `package:com.example` lines → package names. */
export function parsePackageList(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^package:(?:.*=)?([A-Za-z][\w.]*)(?:\s|$)/.exec(line.trim());
    if (m) {
      out.push(m[1]!);
    }
  }
  return out;
}

/**
 * `pm list packages -f` lines (`package:/data/app/~~a==/com.x-b==/base.apk=com.x`) → package → its
 * base APK. The path may hold `=` itself: the package name is after the last one.
 */
export function parsePackagePaths(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^package:(\/.*)=([A-Za-z][\w.]*)$/.exec(line.trim());
    if (m) {
      out.set(m[2]!, m[1]!);
    }
  }
  return out;
}

/** An app the dump has no section for: its name, nothing known. */
export function unknownApp(name: string): AppEntry {
  return {
    package: name,
    version_name: null,
    version_code: null,
    enabled: null,
    system: false,
    first_install_time: null,
    last_update_time: null,
  };
}

/** Every `Package [name] (…):` section of a package dump. */
export function parsePackageSections(text: string): Map<string, AppEntry> {
  const out = new Map<string, AppEntry>();
  let current: AppEntry | null = null;
  let inUser0 = false;
  for (const line of text.split(/\r?\n/)) {
    const head = /^\s*Package \[([^\]]+)\] \([0-9a-fA-F]+\):\s*$/.exec(line);
    if (head) {
      current = unknownApp(head[1]!);
      out.set(current.package, current);
      inUser0 = false;
      continue;
    }
    if (current === null) {
      continue;
    }
    const t = line.trim();
    let m: RegExpExecArray | null;
    if ((m = /^versionCode=(\d+)/.exec(t))) {
      current.version_code = Number(m[1]);
    } else if ((m = /^versionName=(.*)$/.exec(t))) {
      current.version_name = m[1] === 'null' ? null : m[1]!;
    } else if ((m = /^firstInstallTime=(.+)$/.exec(t))) {
      // Android 13+ prints it per user; the first one (user 0) wins.
      current.first_install_time ??= m[1]!;
    } else if ((m = /^lastUpdateTime=(.+)$/.exec(t))) {
      current.last_update_time ??= m[1]!;
    } else if ((m = /^(?:pkgF|f)lags=\[(.*)\]$/.exec(t))) {
      current.system ||= /\bSYSTEM\b/.test(m[1]!);
    } else if ((m = /^User (\d+):.*\benabled=(\d+)/.exec(t))) {
      inUser0 = m[1] === '0';
      if (inUser0 || current.enabled === null) {
        // 0 default, 1 enabled; 2 disabled, 3 disabled by the user, 4 disabled until used.
        current.enabled = Number(m[2]) <= 1;
      }
    }
  }
  return out;
}
