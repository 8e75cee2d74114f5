/** The toolsets a session can be limited to with `--toolsets`. Every tool is in exactly one. */
export const TOOLSETS = {
  core: 'Build, logcat, crashes, debug sessions, project, health, and reading devices and apps',
  ui: 'Reading the screen and driving the UI',
  'device-admin':
    'Running configurations, installing, launching, and stopping apps, and changing apps and devices',
} as const;

export type Toolset = keyof typeof TOOLSETS;
export const TOOLSET_NAMES = Object.keys(TOOLSETS) as Toolset[];

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
  return TOOLSET_NAMES.map((t) => `  ${t}: ${TOOLSETS[t]}`).join('\n');
}
