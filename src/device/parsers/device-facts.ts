/** Parsers for the small device dumps get_device_info reads in one round trip. */

/** `getprop` output (`[key]: [value]` lines; values may span lines) as a map. */
export function parseGetprop(text: string): Map<string, string> {
  const props = new Map<string, string>();
  const re = /^\[([^\]]+)\]: \[([\s\S]*?)\]$/gm;
  for (const m of text.matchAll(re)) {
    props.set(m[1]!, m[2]!);
  }
  return props;
}

/** `wm size` / `wm density` output: physical size, override, density. */
export function parseWm(
  size: string,
  density: string,
): { width: number; height: number; density: number | null; override: string | null } | null {
  const physical = /Physical size:\s*(\d+)x(\d+)/.exec(size);
  if (!physical) {
    return null;
  }
  const override = /Override size:\s*(\d+x\d+)/.exec(size)?.[1] ?? null;
  const dens = /Override density:\s*(\d+)/.exec(density) ?? /Physical density:\s*(\d+)/.exec(density);
  return {
    width: Number(physical[1]),
    height: Number(physical[2]),
    density: dens ? Number(dens[1]) : null,
    override,
  };
}

/** The battery level from `dumpsys battery`. */
export function parseBatteryLevel(text: string): number | null {
  const m = /^\s*level:\s*(\d+)/m.exec(text);
  return m ? Number(m[1]) : null;
}

/**
 * The resumed activity from `dumpsys activity activities` (`mResumedActivity`, or
 * `topResumedActivity` / `ResumedActivity:` on newer releases): `pkg/.Activity`.
 */
export function parseResumedActivity(text: string): { package: string; activity: string | null } | null {
  const m =
    /(?:mResumedActivity|topResumedActivity|ResumedActivity):?\s*=?\s*ActivityRecord\{[^}]*?\s([\w.]+)\/([\w.$]+)/.exec(
      text,
    );
  if (m) {
    const pkg = m[1]!;
    const act = m[2]!;
    return { package: pkg, activity: act.startsWith('.') ? pkg + act : act };
  }
  const focus = /mCurrentFocus=Window\{[^}]*?\s([\w.]+)\/([\w.$]+)\}/.exec(text);
  return focus
    ? { package: focus[1]!, activity: focus[2]!.startsWith('.') ? focus[1]! + focus[2]! : focus[2]! }
    : null;
}
