/**
 * `dumpsys location`: the last known fix of each provider. Reads `Location[gps 37.42,-122.08 hAcc=5
 * et=+1h2m3s alt=5.0 …]` (Android 11+), the older `acc=`, `last coarse location=`, `null`, and
 * coordinates printed with a decimal comma by some locales (`-26,107600,28,056800`).
 */

export interface LocationFix {
  provider: string;
  latitude: number;
  longitude: number;
  altitude: number | null;
  accuracy_m: number | null;
  elapsed_realtime_ms: number | null;
  age_ms: number | null;
  coarse: boolean;
}

export interface LocationState {
  location_enabled: boolean | null;
  fixes: LocationFix[];
}

/** `+2d11h54m48s258ms`, `+1m23s722ms`, `0` → milliseconds. */
export function parseElapsed(text: string): number | null {
  const t = text.replace(/^\+/, '');
  if (t === '0') {
    return 0;
  }
  const re = /(\d+)(ms|d|h|m|s)/g;
  let total = 0;
  let consumed = 0;
  for (const m of t.matchAll(re)) {
    const n = Number(m[1]);
    total += n * ({ d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const)[m[2] as 'd']!;
    consumed += m[0].length;
  }
  return consumed === t.length && consumed > 0 ? total : null;
}

function num(text: string | undefined): number | null {
  if (text === undefined || text.includes('?')) {
    return null;
  }
  const n = Number(text.replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}

/** `31.309459,121.508284` or, with decimal commas, `-26,107600,28,056800`. */
function coordinates(text: string): [number, number] | null {
  const parts = text.split(',');
  const pair =
    parts.length === 2
      ? parts
      : parts.length === 4
        ? [`${parts[0]}.${parts[1]}`, `${parts[2]}.${parts[3]}`]
        : null;
  if (pair === null) {
    return null;
  }
  const lat = Number(pair[0]);
  const lon = Number(pair[1]);
  return Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180
    ? [lat, lon]
    : null;
}

/** One `Location[…]`; `provider` is the provider block it was listed under. */
export function parseLocation(
  body: string,
  provider: string,
  coarse: boolean,
  uptimeMs: number | null,
): LocationFix | null {
  const m = /^(\S+) (\S+)(.*)$/.exec(body.trim());
  if (!m) {
    return null;
  }
  const coords = coordinates(m[2]!);
  if (coords === null) {
    return null;
  }
  const rest = m[3]!;
  const field = (name: string): string | undefined => new RegExp(`\\b${name}=(\\S+)`).exec(rest)?.[1];
  const et = field('et');
  const elapsed = et === undefined ? null : parseElapsed(et);
  return {
    provider,
    latitude: coords[0],
    longitude: coords[1],
    altitude: num(field('alt')),
    accuracy_m: num(field('hAcc') ?? field('acc')),
    elapsed_realtime_ms: elapsed,
    age_ms: elapsed !== null && uptimeMs !== null && uptimeMs >= elapsed ? uptimeMs - elapsed : null,
    coarse,
  };
}

/** Parses the dump; `uptimeMs` (from /proc/uptime) turns each fix's `et=` into an age. */
export function parseLocationDump(text: string, uptimeMs: number | null): LocationState {
  const enabledText = /Location (?:Setting|Enabled):\s*(true|false)/.exec(text)?.[1];
  const fixes: LocationFix[] = [];
  let provider: string | null = null;
  let providerIndent = -1;
  for (const line of text.split(/\r?\n/)) {
    const indent = line.length - line.trimStart().length;
    const head = /^\s*([A-Za-z_][\w-]*) provider:\s*$/.exec(line);
    if (head) {
      provider = head[1]!;
      providerIndent = indent;
      continue;
    }
    if (provider !== null && line.trim() !== '' && indent <= providerIndent) {
      provider = null;
    }
    const fix = /^\s*last (coarse )?location=Location\[(.*)\]\s*$/.exec(line);
    if (fix && provider !== null) {
      const parsed = parseLocation(fix[2]!, provider, fix[1] !== undefined, uptimeMs);
      if (parsed) {
        fixes.push(parsed);
      }
    }
  }
  return { location_enabled: enabledText === undefined ? null : enabledText === 'true', fixes };
}

/** The first number of /proc/uptime, in ms. */
export function parseUptime(text: string): number | null {
  const n = Number(text.trim().split(/\s+/)[0]);
  return Number.isFinite(n) && n > 0 ? Math.round(n * 1000) : null;
}
