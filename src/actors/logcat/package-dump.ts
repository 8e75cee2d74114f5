/**
 * `dumpsys package PKG`: one package's `Package [pkg]` section read into the facts `dump_app_info`
 * reports: versions, SDK levels, install times, paths, flags, permissions (requested, install-time
 * and runtime, with their granted state) and per-user state.
 */

/** An install-time or runtime permission and whether it is granted. */
export interface PermissionState {
  name: string;
  granted: boolean;
  flags: string[];
}

/** A package's state for one user. */
export interface PackageUserState {
  user: number;
  installed: boolean | null;
  hidden: boolean | null;
  suspended: boolean | null;
  stopped: boolean | null;
  not_launched: boolean | null;
  enabled: number | null;
  /** `DEFAULT`, `ENABLED`, `DISABLED`, `DISABLED_USER`, `DISABLED_UNTIL_USED`. */
  enabled_state: string | null;
}

/** What the dump says about one package. */
export interface PackageInfo {
  package: string;
  user_id: number | null;
  version_code: number | null;
  version_name: string | null;
  min_sdk: number | null;
  target_sdk: number | null;
  first_install_time: string | null;
  last_update_time: string | null;
  code_path: string | null;
  data_dir: string | null;
  primary_cpu_abi: string | null;
  installer: string | null;
  flags: string[];
  private_flags: string[];
  declared_permissions: string[];
  requested_permissions: string[];
  install_permissions: PermissionState[];
  runtime_permissions: PermissionState[];
  users: PackageUserState[];
}

const ENABLED_STATES = ['DEFAULT', 'ENABLED', 'DISABLED', 'DISABLED_USER', 'DISABLED_UNTIL_USED'];

function indentOf(line: string): number {
  let i = 0;
  while (i < line.length && line.charCodeAt(i) === 32) {
    i++;
  }
  return i;
}

function bracketList(value: string): string[] {
  return value
    .replace(/^\[/, '')
    .replace(/\]$/, '')
    .split(/[\s|,]+/)
    .filter((s) => s.length > 0);
}

function permission(line: string): PermissionState | null {
  const m = /^([\w.$-]+): granted=(true|false)(?:, flags=\[(.*)\])?/.exec(line);
  if (m === null) {
    return null;
  }
  return { name: m[1] ?? '', granted: m[2] === 'true', flags: bracketList(m[3] ?? '') };
}

function bool(v: string | undefined): boolean | null {
  return v === 'true' ? true : v === 'false' ? false : null;
}

/** The line where the section of `pkg` (or the first package) starts, its name and indent; null when none. */
function findSection(
  lines: string[],
  pkg: string | undefined,
): { start: number; name: string; indent: number } | null {
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)Package \[([^\]]+)\]/.exec(lines[i] ?? '');
    if (m !== null && (pkg === undefined || m[2] === pkg)) {
      return { start: i, name: m[2] ?? '', indent: (m[1] ?? '').length };
    }
  }
  return null;
}

function emptyInfo(name: string): PackageInfo {
  return {
    package: name,
    user_id: null,
    version_code: null,
    version_name: null,
    min_sdk: null,
    target_sdk: null,
    first_install_time: null,
    last_update_time: null,
    code_path: null,
    data_dir: null,
    primary_cpu_abi: null,
    installer: null,
    flags: [],
    private_flags: [],
    declared_permissions: [],
    requested_permissions: [],
    install_permissions: [],
    runtime_permissions: [],
    users: [],
  };
}

/** One line of a `…permissions:` list into its list. */
function listItem(info: PackageInfo, kind: string, line: string): void {
  if (kind === 'requested permissions') {
    info.requested_permissions.push(line.split(/[:,\s]/)[0] ?? line);
  } else if (kind === 'declared permissions') {
    info.declared_permissions.push(line.split(':')[0] ?? line);
  } else if (kind === 'install permissions' || kind === 'runtime permissions') {
    const p = permission(line);
    if (p !== null) {
      (kind === 'install permissions' ? info.install_permissions : info.runtime_permissions).push(p);
    }
  }
}

/** `User 0: ceDataInode=… installed=true hidden=false …`. */
function userLine(user: RegExpExecArray): PackageInfo['users'][number] {
  const kv = new Map<string, string>();
  for (const m of (user[2] ?? '').matchAll(/(\w+)=(\S+)/g)) {
    kv.set(m[1] ?? '', m[2] ?? '');
  }
  const enabled = kv.has('enabled') ? Number(kv.get('enabled')) : null;
  return {
    user: Number(user[1]),
    installed: bool(kv.get('installed')),
    hidden: bool(kv.get('hidden')),
    suspended: bool(kv.get('suspended')),
    stopped: bool(kv.get('stopped')),
    not_launched: bool(kv.get('notLaunched')),
    enabled,
    enabled_state: enabled !== null ? (ENABLED_STATES[enabled] ?? null) : null,
  };
}

const orNull = (value: string): string | null => (value === 'null' ? null : value);

/** How each `key=value` line of a package section sets its field. */
const KEY_FIELDS: Record<string, (info: PackageInfo, value: string) => void> = {
  userId: (info, v) => (info.user_id = Number(v) || null),
  // Android 16 prints the same id as `appId=` (Settings.dumpPackageLPr, SDK 36).
  appId: (info, v) => (info.user_id = Number(v) || null),
  versionName: (info, v) => (info.version_name = v),
  minSdk: (info, v) => (info.min_sdk = Number(v) || null),
  targetSdk: (info, v) => (info.target_sdk = Number(v) || null),
  firstInstallTime: (info, v) => (info.first_install_time = v),
  lastUpdateTime: (info, v) => (info.last_update_time = v),
  codePath: (info, v) => (info.code_path = v),
  dataDir: (info, v) => (info.data_dir = v),
  primaryCpuAbi: (info, v) => (info.primary_cpu_abi = orNull(v)),
  installerPackageName: (info, v) => (info.installer = orNull(v)),
  flags: (info, v) => (info.flags = bracketList(v)),
  privateFlags: (info, v) => (info.private_flags = bracketList(v)),
};

/** A line that is no list item: a list header, a user, the version line, or `key=value`. */
function fieldLine(info: PackageInfo, line: string): string | null {
  const header = /^([a-zA-Z ]+):$/.exec(line);
  if (header !== null) {
    return header[1] ?? '';
  }
  const user = /^User (\d+): (.*)$/.exec(line);
  if (user !== null) {
    info.users.push(userLine(user));
    return null;
  }
  const version = /^versionCode=(\d+)(?:\s+minSdk=(\d+))?(?:\s+targetSdk=(\d+))?/.exec(line);
  if (version !== null) {
    info.version_code = Number(version[1]);
    info.min_sdk = version[2] !== undefined ? Number(version[2]) : info.min_sdk;
    info.target_sdk = version[3] !== undefined ? Number(version[3]) : info.target_sdk;
    return null;
  }
  const eq = line.indexOf('=');
  if (eq > 0) {
    const key = line.slice(0, eq);
    if (Object.hasOwn(KEY_FIELDS, key)) {
      KEY_FIELDS[key]!(info, line.slice(eq + 1));
    }
  }
  return null;
}

/** Parses the section of `pkg` (or the first package when not given); null when it is not there. */
export function parsePackageDump(text: string, pkg?: string): PackageInfo | null {
  const lines = text.split(/\r?\n/);
  const section = findSection(lines, pkg);
  if (section === null) {
    return null;
  }
  const info = emptyInfo(section.name);
  let list: { kind: string; indent: number } | null = null;
  for (let i = section.start + 1; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (raw.trim().length === 0) {
      continue;
    }
    const indent = indentOf(raw);
    if (indent <= section.indent) {
      break; // the next package or section
    }
    const line = raw.trim();
    if (list !== null && indent > list.indent) {
      listItem(info, list.kind, line);
      continue;
    }
    const header = fieldLine(info, line);
    list = header === null ? null : { kind: header, indent };
  }
  return info;
}
