/** The toolsets a session can be limited to with `--toolsets`. Every tool is in exactly one. */
export const TOOLSETS = {
  core: 'Build, logcat, crashes, debug sessions, project, health, and reading devices and apps',
  ui: 'Reading the screen and driving the UI',
  'device-admin':
    'Running configurations, installing, launching, and stopping apps, and changing apps and devices',
  'device-extras':
    'Notifications, files in device folders the user allowed, intents, installed apps, windows, and location (off unless enabled)',
} as const;

export type Toolset = keyof typeof TOOLSETS;
export const TOOLSET_NAMES = Object.keys(TOOLSETS) as Toolset[];

/**
 * Toolsets served only when `--toolsets` names them: they reach into the device beyond the app
 * under development (its notifications, shared storage, other apps' intents, its location).
 */
export const OPT_IN_TOOLSETS: readonly Toolset[] = ['device-extras'];

/** What a session serves when `--toolsets` is absent: every toolset that is not opt-in. */
export const DEFAULT_TOOLSETS: readonly Toolset[] = TOOLSET_NAMES.filter((t) => !OPT_IN_TOOLSETS.includes(t));

/** True when `name` is a toolset. */
export function isToolset(name: string): name is Toolset {
  return Object.prototype.hasOwnProperty.call(TOOLSETS, name);
}

/** Thrown for a bad `--toolsets` value; the CLI prints it with the toolset names and exits 2. */
export class ToolsetError extends Error {}

/**
 * Parses a `--toolsets` value (`core,ui`). Unknown or empty names are errors; duplicates are merged;
 * the result keeps the canonical order.
 */
export function parseToolsets(value: string | undefined): Toolset[] {
  if (value === undefined || value.trim() === '') {
    throw new ToolsetError('--toolsets needs a value: a comma-separated list of toolsets');
  }
  const names = value.split(',').map((n) => n.trim());
  const chosen = new Set<Toolset>();
  for (const name of names) {
    if (name === '') {
      throw new ToolsetError(`--toolsets has an empty name in '${value}'`);
    }
    if (!isToolset(name)) {
      throw new ToolsetError(`unknown toolset '${name}'`);
    }
    chosen.add(name);
  }
  return TOOLSET_NAMES.filter((t) => chosen.has(t));
}

/** The toolset list for error messages: `core (…), ui (…), …`. */
export function describeToolsets(): string {
  return TOOLSET_NAMES.map(
    (t) =>
      `  ${t}: ${TOOLSETS[t]}${OPT_IN_TOOLSETS.includes(t) ? ' [served only when --toolsets names it]' : ''}`,
  ).join('\n');
}
