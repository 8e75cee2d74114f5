/**
 * Run configurations: "build this module's variant, install it, launch it on this target". This
 * module makes the default ones for a project and resolves one against the project and the devices
 * adb lists now. It is pure: storing configurations and running them belong to their callers.
 */
import { qualifyComponent } from './manifest.js';
import { effectiveNamespace, type ProjectModel } from './project-model.js';
import { moduleVariants, type BuildVariant } from './variants.js';

export type RunTarget =
  { kind: 'ask' } | { kind: 'lastUsed' } | { kind: 'serial'; serial: string } | { kind: 'avd'; avd: string };

export type RunLaunch =
  | { kind: 'default-activity' }
  | { kind: 'activity'; activity: string }
  | { kind: 'deep-link'; url: string }
  | { kind: 'none' };

export interface RunConfiguration {
  /** `app (demoDebug)`. */
  name: string;
  module: string;
  variant: string;
  /** The task it builds: `:app:assembleDemoDebug`. */
  task: string;
  launch: RunLaunch;
  target: RunTarget;
  lastDevice: string | null;
  /** null applies `package:mine` after a launch. */
  logcatFilter: string | null;
  /** True for one read from the project's shared file. */
  shared: boolean;
}

export interface DeviceSeen {
  serial: string;
  /** adb's state: `device` means online. */
  state: string;
  /** The AVD name for an emulator, when known. */
  avd?: string | null;
}

export interface RunContext {
  project: ProjectModel;
  trusted: boolean;
  devices: readonly DeviceSeen[];
  /** The device the host's UI has selected, when attached. */
  selectedDevice?: string | null;
  /** `device_serial` passed by the call. */
  deviceSerial?: string | null;
  /** The trust hint to show when not trusted (`droidbus trust PATH`). */
  trustHint?: string;
}

/** What to do, and where, when a configuration runs. */
export interface RunPlan {
  steps: ('build' | 'install' | 'launch')[];
  module: string;
  variant: string;
  task: string;
  applicationId: string | null;
  apkDir: string | null;
  /** The fully qualified activity to start; null for a deep link or no launch. */
  activity: string | null;
  deepLink: string | null;
  device: string | null;
}

export type RunResolution =
  { ok: true; plan: RunPlan; hint?: string } | { ok: false; cannotRun: string; hint?: string };

/** `list`: describe it (device problems are hints); `build`: build only; `run`: build, install, launch. */
export type ResolveMode = 'list' | 'build' | 'run';

/**
 * The default configurations of a project: one per application module and debuggable variant
 * (`app (demoDebug)`), launching the default activity on a device the caller picks. The active
 * variant of a module, when given, comes first.
 */
export function defaultRunConfigurations(
  project: ProjectModel,
  opts: {
    activeVariants?: Readonly<Record<string, string>>;
    maxPerModule?: number;
    /** Configuration name → the device it last ran on (store/run-devices.ts). */
    lastDevices?: Readonly<Record<string, string>>;
  } = {},
): RunConfiguration[] {
  const max = opts.maxPerModule ?? 16;
  const out: RunConfiguration[] = [];
  for (const module of project.modules.filter((m) => m.isApplication)) {
    const variants = moduleVariants(module);
    const active = opts.activeVariants?.[module.path];
    let chosen = variants.filter((v) => v.debuggable === true || v.name === active);
    if (chosen.length === 0) {
      chosen = variants.filter((v) => v.buildType === 'debug');
    }
    chosen.sort((a, b) => Number(b.name === active) - Number(a.name === active));
    const label = module.path === ':' ? (project.rootProjectName ?? 'app') : module.path.slice(1);
    for (const v of chosen.slice(0, max)) {
      const name = `${label} (${v.name})`;
      out.push({
        name,
        module: module.path,
        variant: v.name,
        task: v.tasks.assemble,
        launch: { kind: 'default-activity' },
        target: { kind: 'ask' },
        lastDevice: opts.lastDevices?.[name] ?? null,
        logcatFilter: null,
        shared: false,
      });
    }
  }
  return out;
}

function online(devices: readonly DeviceSeen[]): DeviceSeen[] {
  return devices.filter((d) => d.state === 'device');
}

type DevicePick = { serial: string } | { problem: string; hint?: string };

function pickDevice(config: RunConfiguration, ctx: RunContext): DevicePick {
  const up = online(ctx.devices);
  const isUp = (serial: string): boolean => up.some((d) => d.serial === serial);
  const explicit = ctx.deviceSerial ?? null;
  const t = config.target;
  if (t.kind === 'serial') {
    if (explicit !== null && explicit !== t.serial) {
      return { problem: `configuration '${config.name}' runs on ${t.serial}, not ${explicit}` };
    }
    return isUp(t.serial)
      ? { serial: t.serial }
      : { problem: `device ${t.serial} is not connected (adb does not list it online)` };
  }
  if (t.kind === 'avd') {
    const dev = up.find((d) => d.avd === t.avd);
    if (explicit !== null && dev?.serial !== explicit) {
      return { problem: `configuration '${config.name}' runs on the AVD ${t.avd}, not ${explicit}` };
    }
    if (!dev) {
      return {
        problem: `the AVD ${t.avd} is not running`,
        hint: `call launch_avd with ${t.avd}, then try again`,
      };
    }
    return { serial: dev.serial };
  }
  if (explicit !== null) {
    return isUp(explicit)
      ? { serial: explicit }
      : { problem: `device ${explicit} is not connected (adb does not list it online)` };
  }
  if (t.kind === 'lastUsed' && config.lastDevice !== null && isUp(config.lastDevice)) {
    return { serial: config.lastDevice };
  }
  if (ctx.selectedDevice && isUp(ctx.selectedDevice)) {
    return { serial: ctx.selectedDevice };
  }
  if (up.length === 1) {
    return { serial: (up[0] as DeviceSeen).serial };
  }
  if (up.length === 0) {
    return { problem: 'no device is online', hint: 'connect a device or start an emulator (launch_avd)' };
  }
  return {
    problem: `${up.length} devices are online`,
    hint: `pass device_serial (one of ${up.map((d) => d.serial).join(', ')})`,
  };
}

/** Says what the configuration would do now, or why it cannot run. */
export function resolveRunConfiguration(
  config: RunConfiguration,
  ctx: RunContext,
  mode: ResolveMode,
): RunResolution {
  if (!ctx.trusted) {
    return {
      ok: false,
      cannotRun: 'the project is not trusted, so its Gradle build cannot run (Safe Mode)',
      hint: ctx.trustHint ?? `ask the user to run: droidbus trust ${ctx.project.root}`,
    };
  }
  const module = ctx.project.modules.find((m) => m.path === config.module);
  if (!module) {
    return { ok: false, cannotRun: `module ${config.module} is no longer in the project's settings` };
  }
  if (!module.isApplication) {
    return { ok: false, cannotRun: `module ${config.module} is not an application module` };
  }
  const variants = moduleVariants(module);
  const variant: BuildVariant | undefined = variants.find((v) => v.name === config.variant);
  if (!variant) {
    const names = variants.map((v) => v.name);
    return {
      ok: false,
      cannotRun: `variant ${config.variant} does not exist in ${config.module} (it has ${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''})`,
    };
  }
  const buildable = [variant.tasks.assemble, variant.tasks.install].filter((t): t is string => t !== null);
  if (!buildable.includes(config.task)) {
    return {
      ok: false,
      cannotRun: `task ${config.task} does not build ${config.variant}; it would be ${variant.tasks.assemble}`,
    };
  }
  const plan: RunPlan = {
    steps:
      mode === 'build'
        ? ['build']
        : config.launch.kind === 'none'
          ? ['build', 'install']
          : ['build', 'install', 'launch'],
    module: module.path,
    variant: variant.name,
    task: config.task,
    applicationId: variant.applicationId,
    apkDir: variant.apkDir,
    activity: null,
    deepLink: null,
    device: null,
  };
  if (mode === 'build') {
    return { ok: true, plan };
  }
  const namespace = effectiveNamespace(module);
  if (config.launch.kind === 'default-activity') {
    const launcher = module.manifest?.launcherActivity ?? null;
    const activity = launcher !== null ? qualifyComponent(launcher, namespace) : null;
    if (activity === null) {
      const where = module.manifest?.path ?? `${module.dir ?? module.path}/src/main/AndroidManifest.xml`;
      return {
        ok: false,
        cannotRun: `no launcher activity found in ${where}; set the configuration's launch to an activity or to none`,
      };
    }
    plan.activity = activity;
  } else if (config.launch.kind === 'activity') {
    plan.activity = qualifyComponent(config.launch.activity, namespace);
    if (plan.activity === null) {
      return {
        ok: false,
        cannotRun: `activity ${config.launch.activity} cannot be qualified: the module's namespace is unknown`,
      };
    }
  } else if (config.launch.kind === 'deep-link') {
    plan.deepLink = config.launch.url;
  }
  const pick = pickDevice(config, ctx);
  if ('serial' in pick) {
    plan.device = pick.serial;
    return { ok: true, plan };
  }
  if (mode === 'list') {
    return pick.hint !== undefined
      ? { ok: true, plan, hint: `${pick.problem}: ${pick.hint}` }
      : { ok: true, plan, hint: pick.problem };
  }
  return pick.hint !== undefined
    ? { ok: false, cannotRun: pick.problem, hint: pick.hint }
    : { ok: false, cannotRun: pick.problem };
}
