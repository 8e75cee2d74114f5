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

/** Parses the section of `pkg` (or the first package when not given); null when it is not there. */
export function parsePackageDump(text: string, pkg?: string): PackageInfo | null {
  const lines = text.split(/\r?\n/);
  let start = -1;
  let name = '';
  let baseIndent = 0;
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)Package \[([^\]]+)\]/.exec(lines[i] ?? '');
    if (m !== null && (pkg === undefined || m[2] === pkg)) {
      start = i;
      name = m[2] ?? '';
      baseIndent = (m[1] ?? '').length;
      break;
    }
  }
  if (start < 0) {
    return null;
  }
  const info: PackageInfo = {
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
  let list: { kind: string; indent: number } | null = null;
  for (let i = start + 1; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (raw.trim().length === 0) {
      continue;
    }
    const indent = indentOf(raw);
    if (indent <= baseIndent) {
      break; // the next package or section
    }
    const line = raw.trim();
    if (list !== null) {
      if (indent > list.indent) {
        if (list.kind === 'requested permissions') {
          info.requested_permissions.push(line.split(/[:,\s]/)[0] ?? line);
        } else if (list.kind === 'declared permissions') {
          info.declared_permissions.push(line.split(':')[0] ?? line);
        } else if (list.kind === 'install permissions') {
          const p = permission(line);
          if (p !== null) {
            info.install_permissions.push(p);
          }
        } else if (list.kind === 'runtime permissions') {
          const p = permission(line);
          if (p !== null) {
            info.runtime_permissions.push(p);
          }
        }
        continue;
      }
      list = null;
    }
    const header = /^([a-zA-Z ]+):$/.exec(line);
    if (header !== null) {
      list = { kind: header[1] ?? '', indent };
      continue;
    }
    const user = /^User (\d+): (.*)$/.exec(line);
    if (user !== null) {
      const kv = new Map<string, string>();
      for (const m of (user[2] ?? '').matchAll(/(\w+)=(\S+)/g)) {
        kv.set(m[1] ?? '', m[2] ?? '');
      }
      const enabled = kv.has('enabled') ? Number(kv.get('enabled')) : null;
      info.users.push({
        user: Number(user[1]),
        installed: bool(kv.get('installed')),
        hidden: bool(kv.get('hidden')),
        suspended: bool(kv.get('suspended')),
        stopped: bool(kv.get('stopped')),
        not_launched: bool(kv.get('notLaunched')),
        enabled,
        enabled_state: enabled !== null ? (ENABLED_STATES[enabled] ?? null) : null,
      });
      continue;
    }
    const version = /^versionCode=(\d+)(?:\s+minSdk=(\d+))?(?:\s+targetSdk=(\d+))?/.exec(line);
    if (version !== null) {
      info.version_code = Number(version[1]);
      info.min_sdk = version[2] !== undefined ? Number(version[2]) : info.min_sdk;
      info.target_sdk = version[3] !== undefined ? Number(version[3]) : info.target_sdk;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) {
      continue;
    }
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1);
    switch (key) {
      case 'userId':
        info.user_id = Number(value) || null;
        break;
      case 'versionName':
        info.version_name = value;
        break;
      case 'minSdk':
        info.min_sdk = Number(value) || null;
        break;
      case 'targetSdk':
        info.target_sdk = Number(value) || null;
        break;
      case 'firstInstallTime':
        info.first_install_time = value;
        break;
      case 'lastUpdateTime':
        info.last_update_time = value;
        break;
      case 'codePath':
        info.code_path = value;
        break;
      case 'dataDir':
        info.data_dir = value;
        break;
      case 'primaryCpuAbi':
        info.primary_cpu_abi = value === 'null' ? null : value;
        break;
      case 'installerPackageName':
        info.installer = value === 'null' ? null : value;
        break;
      case 'flags':
        info.flags = bracketList(value);
        break;
      case 'privateFlags':
        info.private_flags = bracketList(value);
        break;
      default:
        break;
    }
  }
  return info;
}
