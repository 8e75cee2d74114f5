/**
 * Groups identical crashes under a short id that is stable across runs and devices: a hash of a
 * signature that keeps what identifies the bug and drops what varies between occurrences.
 *
 * - Java: the root cause's type plus the top three frames of the app's own code (classes under the
 *   crash's package, or the parent of it they are under, or the caller's own prefixes), searched
 *   from the root cause outward, line numbers
 *   kept; with no own frames, the root cause's top three frames without line numbers, so framework
 *   line numbers never split a group. Messages are left out (they carry ids and addresses).
 * - Native: the signal plus the top three frames of the app's own libraries (under `/data/app/` or
 *   naming the package), else the top three, as `libname.so(symbol)` with pc and offsets stripped.
 * - ANR: with its threads read from the device's report, package and the main thread's top three
 *   frames outside the platform; else package, component and the reason's wording without ids
 *   and numbers.
 */
import { createHash } from 'node:crypto';
import type { Crash, CrashGroup, JavaThrowable } from './logcat-types.js';
import { isPlatformFrame, rootCauseFrame } from '../../util/java-frames.js';

/** Frames that go into a signature. */
export const SIGNATURE_FRAMES = 3;

/** The short stable id of a signature. */
export function crashGroupId(signature: string): string {
  return createHash('sha256').update(signature).digest('hex').slice(0, 12);
}

/** `com.pkg.Foo.bar(Foo.kt:12)` → `{ method: 'com.pkg.Foo.bar', location: 'Foo.kt:12' }`. */
function splitFrame(frame: string): { method: string; location: string } {
  const p = frame.indexOf('(');
  if (p < 0) {
    return { method: frame.trim(), location: '' };
  }
  const end = frame.lastIndexOf(')');
  return { method: frame.slice(0, p).trim(), location: frame.slice(p + 1, end > p ? end : frame.length) };
}

function isOwnClass(method: string, prefixes: readonly string[]): boolean {
  for (const prefix of prefixes) {
    if (
      method.startsWith(prefix) &&
      (method.length === prefix.length || method.charCodeAt(prefix.length) === 46)
    ) {
      return true;
    }
  }
  return false;
}

/**
 * The class prefixes of the app's own code: the caller's, and the crash's package — or, when none
 * of the frames is under it, its longest parent (of three names or more) that some frame is under:
 * `com.example.app.demo.debug` (a flavor and an applicationIdSuffix) has its classes under
 * `com.example.app`, its namespace.
 */
function ownPrefixesOf(crash: Crash, extra: readonly string[], chain: readonly JavaThrowable[]): string[] {
  const out = [...extra];
  if (crash.package === null || out.includes(crash.package)) {
    return out;
  }
  const names = crash.package.split('.');
  const underIt = (prefix: string): boolean =>
    chain.some((t) => t.frames.some((f) => isOwnClass(splitFrame(f).method, [prefix])));
  for (let n = names.length; n >= 3; n--) {
    const prefix = names.slice(0, n).join('.');
    if (underIt(prefix)) {
      out.push(prefix);
      return out;
    }
  }
  out.push(crash.package);
  return out;
}

/** The throwables of a Java crash, outermost first. */
function chainOf(crash: Crash): JavaThrowable[] {
  const chain: JavaThrowable[] = [];
  if (crash.exception !== null) {
    chain.push({
      exception: crash.exception,
      message: crash.message,
      frames: crash.frames,
      more: 0,
      suppressed: [],
    });
  }
  chain.push(...crash.causes);
  return chain;
}

function javaSignature(crash: Crash, extra: readonly string[]): { signature: string; title: string } {
  const chain = chainOf(crash);
  const prefixes = ownPrefixesOf(crash, extra, chain);
  const root = chain[chain.length - 1];
  const type = root?.exception ?? 'unknown';
  let parts: string[] = [];
  for (let i = chain.length - 1; i >= 0 && parts.length === 0; i--) {
    const own = (chain[i]?.frames ?? []).filter((f) => isOwnClass(splitFrame(f).method, prefixes));
    parts = own.slice(0, SIGNATURE_FRAMES).map((f) => {
      const { method, location } = splitFrame(f);
      return `${method}(${location})`;
    });
  }
  if (parts.length === 0) {
    for (let i = chain.length - 1; i >= 0 && parts.length === 0; i--) {
      parts = (chain[i]?.frames ?? []).slice(0, SIGNATURE_FRAMES).map((f) => splitFrame(f).method);
    }
  }
  // The title says where the root cause happened — in its own frames, obfuscated or not — never at
  // a frame of the exception that wrapped it (the signature, which groups, is left as it was).
  const blame = rootCauseFrame(
    chain.map((t) => t.frames),
    (f) => isOwnClass(splitFrame(f).method, prefixes),
  );
  return {
    signature: `java|${type}|${parts.join('|')}`,
    title: blame !== null ? `${type} at ${blame}` : type,
  };
}

/** A native backtrace line reduced to `libname.so(symbol)`, or `libname.so` without a symbol. */
export function nativeFrameKey(frame: string): { key: string; path: string } {
  // `#00 pc 0000000000051698  /apex/…/libc.so (abort+168) (BuildId: b947…)`
  const m = /^#\d+\s+pc\s+[0-9a-fA-F]+\s+(\S+)(?:\s+\((.*?)\))?(?:\s+\(BuildId:.*\))?\s*$/.exec(frame.trim());
  if (m === null) {
    return { key: frame.trim(), path: '' };
  }
  const path = m[1] ?? '';
  const base = path.slice(path.lastIndexOf('/') + 1);
  let symbol = m[2] ?? '';
  if (symbol.startsWith('BuildId:')) {
    symbol = '';
  }
  symbol = symbol.replace(/\+\d+$/, '').replace(/\+0x[0-9a-fA-F]+$/, '');
  return { key: symbol.length > 0 ? `${base}(${symbol})` : base, path };
}

function nativeSignature(crash: Crash): { signature: string; title: string } {
  const signal =
    crash.signal ?? (crash.signal_number !== null ? `signal ${crash.signal_number}` : 'unknown signal');
  const frames = crash.frames.map(nativeFrameKey);
  const pkg = crash.package;
  const own = frames.filter((f) => f.path.startsWith('/data/app/') || (pkg !== null && f.path.includes(pkg)));
  const chosen = (own.length > 0 ? own : frames).slice(0, SIGNATURE_FRAMES).map((f) => f.key);
  if (chosen.length === 0) {
    // Only the libc line was seen: the process is all there is to tell crashes apart.
    chosen.push(crash.package ?? crash.process ?? '');
  }
  return {
    signature: `native|${signal}|${chosen.join('|')}`,
    title: `${signal}${crash.signal_code !== null ? ` (${crash.signal_code})` : ''} in ${chosen[0] ?? '?'}`,
  };
}

/** An ANR reason without the parts that change per occurrence (window ids, wait times, addresses). */
export function normalizeAnrReason(reason: string | null): string {
  if (reason === null) {
    return '';
  }
  const p = reason.indexOf('(');
  const head = (p >= 0 ? reason.slice(0, p) : reason).trim();
  return head
    .replace(/0x[0-9a-fA-F]+/g, '#')
    .replace(/\b[0-9a-f]{6,}\b/g, '#')
    .replace(/\d+/g, '#')
    .replace(/\s+/g, ' ');
}

function anrSignature(crash: Crash): { signature: string; title: string } {
  const reason = normalizeAnrReason(crash.message);
  // With its threads read, an ANR is grouped — like a crash — by where the main thread is stuck:
  // its top frames outside the platform (the app's, obfuscated or not), line numbers kept.
  const stuck = (crash.anr?.main.frames ?? []).filter((f) => !isPlatformFrame(f)).slice(0, SIGNATURE_FRAMES);
  if (crash.anr !== undefined && stuck.length > 0) {
    return {
      signature: `anr|${crash.package ?? crash.process ?? ''}|${stuck.join('|')}`,
      title: `ANR in ${crash.component ?? crash.process ?? crash.package ?? '?'}: main thread ${crash.anr.main.state} at ${stuck[0]}${crash.anr.deadlock ? ' (deadlock)' : ''}`,
    };
  }
  return {
    signature: `anr|${crash.package ?? crash.process ?? ''}|${crash.component ?? ''}|${reason}`,
    title: `ANR in ${crash.component ?? crash.process ?? crash.package ?? '?'}${reason.length > 0 ? `: ${reason}` : ''}`,
  };
}

/** A WebView's uncaught error: by app, exception, where it was thrown, and its message without numbers. */
function jsSignature(crash: Crash): { signature: string; title: string } {
  const where = crash.frames[0] ?? '';
  const message = (crash.message ?? '').replace(/\d+/g, '#');
  const file = where.slice(where.lastIndexOf('/') + 1);
  return {
    signature: `js|${crash.package ?? crash.process ?? ''}|${crash.exception ?? ''}|${where}|${message}`,
    title: `${crash.exception ?? 'Error'} in ${file || 'a page'} (JavaScript)`,
  };
}

/** The signature and a one-line title of a crash. `ownPrefixes` adds class prefixes of the app's code. */
export function crashSignature(
  crash: Crash,
  ownPrefixes: readonly string[] = [],
): { signature: string; title: string } {
  switch (crash.kind) {
    case 'java':
      return javaSignature(crash, ownPrefixes);
    case 'native':
      return nativeSignature(crash);
    case 'anr':
      return anrSignature(crash);
    case 'js':
      return jsSignature(crash);
    default: {
      const never: never = crash.kind;
      throw new Error(`unknown crash kind ${String(never)}`);
    }
  }
}

/** Options for the group table. */
export interface CrashGroupsOptions {
  /** Class prefixes of the app's own code, beyond each crash's package. */
  ownPrefixes?: readonly string[];
  /** Most groups kept; the least recently seen go first (default 2,000). */
  maxGroups?: number;
}

/** Filters for listing groups. */
export interface CrashGroupFilter {
  package?: string;
  device?: string;
  kind?: Crash['kind'];
  limit?: number;
}

const MAX_LISTED = 32;

/** The crash groups seen so far (one table for all devices). */
export class CrashGroups {
  private readonly groups = new Map<string, CrashGroup>();
  private ownPrefixes: readonly string[];
  private readonly maxGroups: number;

  constructor(options: CrashGroupsOptions = {}) {
    this.ownPrefixes = options.ownPrefixes ?? [];
    this.maxGroups = options.maxGroups ?? 2000;
  }

  /** Replaces the own-code prefixes (the open project changed); existing ids are kept. */
  setOwnPrefixes(prefixes: readonly string[]): void {
    this.ownPrefixes = [...prefixes];
  }

  /** Files a crash under its group (creating it), sets `crash.group_id`, and returns the group. */
  add(crash: Crash): CrashGroup {
    const { signature, title } = crashSignature(crash, this.ownPrefixes);
    const id = crashGroupId(signature);
    crash.group_id = id;
    const at = crash.ts > 0 ? crash.ts : crash.received_at;
    let g = this.groups.get(id);
    if (g === undefined) {
      g = {
        id,
        kind: crash.kind,
        signature,
        title,
        count: 0,
        first_seen: at,
        last_seen: at,
        packages: [],
        devices: [],
        latest: crash,
      };
      if (this.groups.size >= this.maxGroups) {
        const oldest = this.groups.keys().next().value;
        if (oldest !== undefined) {
          this.groups.delete(oldest);
        }
      }
    } else {
      this.groups.delete(id); // re-inserted below: the map stays ordered by last activity
    }
    g.count++;
    g.first_seen = Math.min(g.first_seen, at);
    g.last_seen = Math.max(g.last_seen, at);
    g.latest = crash;
    if (crash.package !== null && !g.packages.includes(crash.package) && g.packages.length < MAX_LISTED) {
      g.packages.push(crash.package);
    }
    if (crash.device !== null && !g.devices.includes(crash.device) && g.devices.length < MAX_LISTED) {
      g.devices.push(crash.device);
    }
    this.groups.set(id, g);
    return g;
  }

  get(id: string): CrashGroup | undefined {
    return this.groups.get(id);
  }

  /** Groups matching the filter, most recently seen first. */
  list(filter: CrashGroupFilter = {}): CrashGroup[] {
    const out: CrashGroup[] = [];
    for (const g of this.groups.values()) {
      if (filter.package !== undefined && !g.packages.includes(filter.package)) {
        continue;
      }
      if (filter.device !== undefined && !g.devices.includes(filter.device)) {
        continue;
      }
      if (filter.kind !== undefined && g.kind !== filter.kind) {
        continue;
      }
      out.push(g);
    }
    out.sort((a, b) => b.last_seen - a.last_seen);
    return filter.limit !== undefined ? out.slice(0, filter.limit) : out;
  }

  get size(): number {
    return this.groups.size;
  }

  clear(): void {
    this.groups.clear();
  }
}

/**
 * `count` crashes (newest first in, the same order kept within a group): the newest of every group
 * first, then every group's second newest, and so on — one group's repeats never crowd another out.
 */
export function takeRoundRobin<C extends { group_id: string | null; seq: number }>(
  crashes: readonly C[],
  count: number,
): C[] {
  const byGroup = new Map<string, C[]>();
  for (const c of crashes) {
    const key = c.group_id ?? `seq-${c.seq}`;
    const list = byGroup.get(key);
    if (list === undefined) {
      byGroup.set(key, [c]);
    } else {
      list.push(c);
    }
  }
  const out: C[] = [];
  for (let round = 0; out.length < count; round++) {
    let any = false;
    for (const list of byGroup.values()) {
      const c = list[round];
      if (c !== undefined && out.length < count) {
        out.push(c);
        any = true;
      }
    }
    if (!any) {
      break;
    }
  }
  return out;
}
