/**
 * The run actor: `run.configuration`, a run configuration as Run App runs it (and `run.build`, its build alone). It owns the workflow
 * and asks the actors that own each step — the project actor for the plan and the last device, the
 * build actor for the build, the device actor for the install and the launch — as the requester
 * (its origin), so every rule of those steps holds whoever asked. It never starts an emulator.
 * Cancelling cancels the build, not an install or launch under way.
 */
import { BusError, fail } from '../../bus/errors.js';
import type { Progress } from '../../bus/envelope.js';
import type { PayloadOf, ResponseOf } from '../../bus/registry.js';
import { defineActor, type HandlerContext } from '../actor.js';

type RunAnswer = ResponseOf<'run.configuration'>;
type Plan = ResponseOf<'project.run_plan'>;

/** Progress that only goes up (MCP requires it): the build's seconds, then one step per phase. */
function phaseReporter(
  ctx: HandlerContext,
  wanted: boolean,
): {
  build: (p: Progress) => void;
  phase: (name: string) => void;
} {
  let last = 0;
  const send = (p: Progress): void => {
    last = Math.max(last, p.progress);
    if (wanted) {
      ctx.progress({ ...p, progress: last });
    }
  };
  return { build: send, phase: (name) => send({ progress: last + 1, message: `phase: ${name}` }) };
}

function failureText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The plan on the devices adb lists now (AVD names asked only for an AVD target with emulators up). */
async function planRun(
  p: PayloadOf<'run.configuration'>,
  ctx: HandlerContext,
): Promise<Plan & { label: string }> {
  const { root } = p;
  const signal = ctx.signal;
  const listed = await ctx.bus.request('project.run_configurations', { root }, { signal });
  const named = listed.configurations.find((c) => c.name === p.name);
  const { devices } = await ctx.bus.request('devices.list', {}, { signal });
  let avdNames = new Map<string, string | null>();
  if (named?.target.startsWith('avd') && devices.some((d) => d.connection === 'emulator')) {
    const avds = await ctx.bus.request('avd.list', { root }, { signal });
    avdNames = new Map(avds.running.map((e) => [e.serial, e.avd_name]));
  }
  const planned = await ctx.bus.request(
    'project.run_plan',
    {
      root,
      name: p.name,
      ...(p.device_serial !== undefined ? { device_serial: p.device_serial } : {}),
      devices: devices.map((d) => ({
        serial: d.serial,
        state: d.state,
        avd: avdNames.get(d.serial) ?? null,
      })),
    },
    { signal },
  );
  const entry = devices.find((d) => d.serial === planned.plan.device);
  return {
    ...planned,
    label: entry?.model ? `${entry.model} (${planned.plan.device})` : planned.plan.device,
  };
}

/** The APK to install: the one this build wrote, else the one Gradle left up to date. */
async function apkToInstall(
  root: string,
  plan: Pick<Plan['plan'], 'module' | 'variant'>,
  built: NonNullable<RunAnswer['build']>,
  ctx: HandlerContext,
): Promise<{ path: string; written: boolean; note: string } | { reason: string }> {
  const apks = built.record.apks;
  const written =
    apks.find((a) => a.module === plan.module && a.variant === plan.variant) ??
    (apks.length === 1 ? apks[0] : undefined);
  if (written) {
    return { path: written.path, written: true, note: '' };
  }
  const found = await ctx.bus.request(
    'project.find_apk',
    { root, module: plan.module, variant: plan.variant },
    { signal: ctx.signal },
  );
  if (!found.found || found.path === null) {
    return { reason: `no APK of ${plan.module} ${plan.variant} was found: ${found.reason ?? 'none'}` };
  }
  return {
    path: found.path,
    written: false,
    note: 'Gradle found it up to date: an earlier build wrote it',
  };
}

/** Launches the planned activity or opens the deep link; the result sentence and what the device printed. */
async function launch(
  plan: Plan['plan'],
  pkg: string,
  configuration: string,
  ctx: HandlerContext,
): Promise<Pick<RunAnswer, 'result' | 'launch_output' | 'launch_timing'>> {
  if (plan.activity !== null) {
    const launched = await ctx.bus.request(
      'device.launch_app',
      { serial: plan.device, package: pkg, activity: plan.activity },
      { origin: ctx.origin },
    );
    const { total_ms, wait_ms, launch_state, displayed_ms, fully_drawn_ms } = launched;
    return {
      result: `${configuration}: built, installed and launched ${launched.component ?? launched.package} on ${plan.device}. ${launched.timing_line}`,
      launch_output: launched.output,
      launch_timing:
        launched.method === 'am_start'
          ? { total_ms, wait_ms, launch_state, displayed_ms, fully_drawn_ms }
          : null,
    };
  }
  const opened = await ctx.bus.request(
    'device.send_intent',
    {
      serial: plan.device,
      mode: 'start',
      action: 'android.intent.action.VIEW',
      data_uri: plan.deep_link!,
      package: pkg,
      extras: [],
    },
    { origin: ctx.origin },
  );
  return {
    result: `${configuration}: built, installed and opened ${plan.deep_link} on ${plan.device}.`,
    launch_output: opened.output,
    launch_timing: null,
  };
}

async function runConfiguration(p: PayloadOf<'run.configuration'>, ctx: HandlerContext): Promise<RunAnswer> {
  const { root } = p;
  const report = phaseReporter(ctx, p.want_progress);
  const { configuration, plan, label } = await planRun(p, ctx);
  const name = configuration.name;
  const out: RunAnswer = {
    configuration: name,
    plan: {
      steps: plan.steps,
      module: plan.module,
      variant: plan.variant,
      application_id: plan.application_id,
      activity: plan.activity,
      deep_link: plan.deep_link,
    },
    task: plan.task,
    outcome: 'done',
    result: '',
    notes: [],
    build: null,
    build_id: null,
    device: { serial: plan.device, label },
    package: null,
    apk_path: null,
    apk_sha256: null,
    apk_written_by_this_build: false,
    launch: configuration.launch,
    launch_output: null,
    launch_timing: null,
    logcat_filter: configuration.logcat_filter ?? 'package:mine',
  };
  const failed = (outcome: RunAnswer['outcome'], result: string, notes: string[] = []): RunAnswer => {
    report.phase(outcome === 'cancelled' ? 'cancelled' : 'failed');
    return { ...out, outcome, result, notes };
  };

  report.phase('building');
  const built = await ctx.bus.request(
    'build.run',
    { root, task: plan.task, variant: null, want_progress: p.want_progress },
    { signal: ctx.signal, origin: ctx.origin, onProgress: report.build },
  );
  out.build = built;
  out.build_id = built.record.id;
  if (built.record.result !== 'success') {
    const cancelled = built.record.result === 'cancelled';
    return failed(
      cancelled ? 'cancelled' : 'build_failed',
      `${name}: the build ${cancelled ? 'was cancelled' : 'failed'}; nothing was installed.`,
    );
  }
  const apk = await apkToInstall(root, plan, built, ctx);
  if ('reason' in apk) {
    return failed('install_failed', `${name}: built, but ${apk.reason}`);
  }
  out.apk_path = apk.path;
  out.apk_written_by_this_build = apk.written;

  report.phase('installing');
  let installed;
  try {
    installed = await ctx.bus.request(
      'device.install_app',
      { serial: plan.device, root, apk_path: apk.path },
      { origin: ctx.origin },
    );
  } catch (err) {
    return failed(
      'install_failed',
      `${name}: built, but installing ${apk.path} on ${plan.device} failed: ${failureText(err)}`,
    );
  }
  out.package = installed.record.package;
  out.apk_sha256 = installed.record.apk_sha256;
  // Installed there: the configuration's last device from now on, as Run App records it.
  const unrecorded = await ctx.bus
    .request('project.record_run_device', { root, name, serial: plan.device })
    .then(
      () => null,
      (err: unknown) => `(${plan.device} could not be recorded as its last device: ${failureText(err)})`,
    );

  if (plan.activity !== null || plan.deep_link !== null) {
    report.phase('launching');
    try {
      Object.assign(out, await launch(plan, installed.record.package, name, ctx));
    } catch (err) {
      if (err instanceof BusError && err.code === 'INVALID') {
        throw err;
      }
      return failed(
        'launch_failed',
        `${name}: built and installed, but the launch on ${plan.device} failed: ${failureText(err)}`,
        [installed.recorded],
      );
    }
  } else {
    out.result = `${name}: built and installed on ${plan.device} (the configuration launches nothing).`;
  }
  report.phase('done');
  out.notes = [
    `APK: ${apk.path}${apk.note === '' ? '' : ` (${apk.note})`}`,
    installed.recorded,
    `Logcat filter: ${out.logcat_filter}`,
    ...(unrecorded !== null ? [unrecorded] : []),
  ];
  return out;
}

/** `run.build`: the configuration's task built, and the APK it stands for. */
async function buildConfiguration(
  p: PayloadOf<'run.build'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'run.build'>> {
  const { root } = p;
  const listed = await ctx.bus.request('project.run_configurations', { root }, { signal: ctx.signal });
  const config = listed.configurations.find((c) => c.name === p.name);
  if (!config) {
    throw fail.invalid(
      `no run configuration named '${p.name.slice(0, 200)}' (the project has: ${listed.configurations.map((c) => c.name).join(', ') || 'none'}); call list_run_configurations`,
    );
  }
  if (!listed.trusted) {
    throw fail.invalid(config.hint ?? 'the project is not trusted, so its Gradle build cannot run', {
      reason: 'untrusted_project',
    });
  }
  const built = await ctx.bus.request(
    'build.run',
    { root, task: config.task, variant: null, want_progress: p.want_progress },
    { signal: ctx.signal, origin: ctx.origin, onProgress: (progress) => ctx.progress(progress) },
  );
  const apk = built.record.result === 'success' ? await apkToInstall(root, config, built, ctx) : null;
  return {
    configuration: config.name,
    module: config.module,
    variant: config.variant,
    task: config.task,
    build: built,
    apk_path: apk !== null && 'path' in apk ? apk.path : null,
    apk_written_by_this_build: apk !== null && 'path' in apk && apk.written,
    apk_note: apk === null ? null : 'reason' in apk ? apk.reason : apk.note || null,
  };
}

export default defineActor({
  kind: 'run',
  // Runs wait on builds (one at a time, in the build actor) and devices: several may be under way.
  concurrency: 8,
  start: () => ({}),
  handlers: {
    'run.configuration': (payload, _state, ctx) => runConfiguration(payload, ctx),
    'run.build': (payload, _state, ctx) => buildConfiguration(payload, ctx),
  },
});
