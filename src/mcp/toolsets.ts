/**
 * The toolsets a session can be limited to with `--toolsets`. Every tool is in exactly one. The
 * first three are what an agent's Android job needs and are served by default; the rest are
 * served only when `--toolsets` names them (OPT_IN_TOOLSETS).
 */
export const TOOLSETS = {
  core: 'Build, logcat, crashes, the project, health, and reading devices and apps',
  ui: 'Reading the screen and driving the UI',
  'device-admin': 'Installing, launching, stopping and restarting apps, their permissions, and deep links',
  inspect:
    "The app's package dump, memory, frame stats, exit reasons and logcat stats, and the debug session of each install",
  'build-config': 'Build variants, the resolved build config, and run configurations',
  'ui-extras':
    "More screen tools: clickable elements, an element's parent, comparing screens, asserting, waiting for idle, clearing a field, typing through the Unicode route only",
  'device-settings':
    "Emulators (list, launch, stop), orientation, network and power state, and an app's settings screen",
  'device-extras': 'Notifications, files in device folders the user allowed, intents, windows, and location',
  flows: 'Exporting a debug session as a Maestro flow, and running Maestro flows on many devices at once',
  network: "Capturing a device's HTTP traffic through droidbus's proxy, and reading the requests",
  web: "Apps' WebViews and browsers through the Chrome DevTools protocol: their pages, read as rows with screen bounds",
} as const;

export type Toolset = keyof typeof TOOLSETS;
export const TOOLSET_NAMES = Object.keys(TOOLSETS) as Toolset[];

/**
 * Toolsets served only when `--toolsets` names them. device-extras reaches into the device beyond
 * the app under development (its notifications, shared storage, other apps' intents, its
 * location), and network routes the whole device's traffic through this machine; the others are tools few jobs need, left out of the default listing because every
 * tool listed is read by the model in every session (issue 34: the listing decided the bill).
 */
export const OPT_IN_TOOLSETS: readonly Toolset[] = [
  'inspect',
  'build-config',
  'ui-extras',
  'device-settings',
  'device-extras',
  'flows',
  'network',
  'web',
];

/** What a session serves when `--toolsets` is absent: every toolset that is not opt-in. */
export const DEFAULT_TOOLSETS: readonly Toolset[] = TOOLSET_NAMES.filter((t) => !OPT_IN_TOOLSETS.includes(t));

/** True when `name` is a toolset. */
export function isToolset(name: string): name is Toolset {
  return Object.prototype.hasOwnProperty.call(TOOLSETS, name);
}

/** Thrown for a bad `--toolsets` value; the CLI prints it with the toolset names and exits 2. */
export class ToolsetError extends Error {}

/**
 * Parses a `--toolsets` value (`core,ui`; `all` is every toolset). Unknown or empty names are
 * errors; duplicates are merged; the result keeps the canonical order.
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
    if (name === 'all') {
      TOOLSET_NAMES.forEach((t) => chosen.add(t));
    } else if (isToolset(name)) {
      chosen.add(name);
    } else {
      throw new ToolsetError(`unknown toolset '${name}'`);
    }
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
