import { z } from 'zod';
import { serialSchema } from '../../bus/messages/devices.js';
import { BusError } from '../../bus/errors.js';
import type { Progress } from '../../bus/envelope.js';
import { ToolError, defineTool } from '../define-tool.js';

import type { ToolContext } from '../define-tool.js';
import { requireRoot, runBuildForTool } from './build.js';

/**
 * run_run_configuration: a run configuration as Run App runs it — resolved on the devices adb lists
 * now, built through the build actor (trust, task policy, one build at a time, the lock, progress,
 * cancellation, timeout), the APK that build wrote installed (recorded, `app.installed`), and the app
 * launched (`app.launched`). It never starts an emulator.
 */

const launchTimingSchema = z.object({
  total_ms: z.number().int().nullable(),
  wait_ms: z.number().int().nullable(),
  launch_state: z.string().nullable(),
  displayed_ms: z.number().int().nullable(),
  fully_drawn_ms: z.number().int().nullable(),
});

const runOutput = z.object({
  configuration: z.string(),
  plan: z
    .object({
      steps: z.array(z.string()),
      module: z.string(),
      variant: z.string(),
      application_id: z.string().nullable(),
      activity: z.string().nullable(),
      deep_link: z.string().nullable(),
    })
    .nullable(),
  task: z.string().nullable(),
  outcome: z.enum(['done', 'build_failed', 'cancelled', 'install_failed', 'launch_failed']),
  result: z.string(),
  build_result: z.string().nullable(),
  build_id: z.string().nullable(),
  device: z.object({ serial: z.string(), label: z.string() }).nullable(),
  package: z.string().nullable(),
  apk_path: z.string().nullable(),
  apk_sha256: z.string().nullable(),
  apk_written_by_this_build: z.boolean(),
  launch: z.string().nullable(),
  launch_output: z.string().nullable(),
  launch_timing: launchTimingSchema.nullable(),
  logcat_filter: z.string().nullable(),
});
type RunOutput = z.infer<typeof runOutput>;

/** Progress that only goes up (MCP requires it): the build's seconds, then one step per phase. */
function phaseReporter(ctx: ToolContext): { build: (p: Progress) => void; phase: (name: string) => void } {
  let last = 0;
  const send = (p: Progress): void => {
    last = Math.max(last, p.progress);
    ctx.progress({ ...p, progress: last });
  };
  return {
    build: send,
    phase: (name) => send({ progress: last + 1, message: `phase: ${name}` }),
  };
}

function failureText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export const runRunConfiguration = defineTool({
  name: 'run_run_configuration',
  toolset: 'device-admin',
  kind: 'open_world',
  title: 'Run a run configuration',
  description:
    'Runs a run configuration (list_run_configurations) as Run App does: builds like run_gradle_task, installs the APK that build wrote (recorded) and launches it, with the launch time. Never starts an emulator (call launch_avd). Cancelling cancels the build, not the install or launch.',
  input: z.object({
    name: z.string().min(1).max(300).describe('Configuration name (list_run_configurations)'),
    device_serial: serialSchema
      .optional()
      .describe("The device to run on (default: the configuration's target, or the only online device)"),
  }),
  output: runOutput,
  /** The configuration by name and the plan's steps as words: what the agent reads back. */
  reshaped: ['configuration', 'plan'],
  async handle(args, ctx) {
    const root = requireRoot(ctx);
    const report = phaseReporter(ctx);
    const listed = await ctx.bus.request('project.run_configurations', { root }, { signal: ctx.signal });
    const named = listed.configurations.find((c) => c.name === args.name);
    const { devices } = await ctx.bus.request('devices.list', {}, { signal: ctx.signal });
    let avdNames = new Map<string, string | null>();
    if (named?.target.startsWith('avd') && devices.some((d) => d.connection === 'emulator')) {
      const avds = await ctx.bus.request('avd.list', { root }, { signal: ctx.signal });
      avdNames = new Map(avds.running.map((e) => [e.serial, e.avd_name]));
    }
    const { configuration, plan } = await ctx.bus.request(
      'project.run_plan',
      {
        root,
        name: args.name,
        ...(args.device_serial !== undefined ? { device_serial: args.device_serial } : {}),
        devices: devices.map((d) => ({
          serial: d.serial,
          state: d.state,
          avd: avdNames.get(d.serial) ?? null,
        })),
      },
      { signal: ctx.signal },
    );
    const entry = devices.find((d) => d.serial === plan.device);
    const out: RunOutput = {
      configuration: configuration.name,
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
      build_result: null,
      build_id: null,
      device: { serial: plan.device, label: entry?.model ? `${entry.model} (${plan.device})` : plan.device },
      package: null,
      apk_path: null,
      apk_sha256: null,
      apk_written_by_this_build: false,
      launch: configuration.launch,
      launch_output: null,
      launch_timing: null,
      logcat_filter: configuration.logcat_filter ?? 'package:mine',
    };

    report.phase('building');
    const built = await runBuildForTool({ ...ctx, progress: report.build }, plan.task, null);
    out.build_result = built.text;
    out.build_id = built.record.id;
    if (built.record.result !== 'success') {
      out.outcome = built.record.result === 'cancelled' ? 'cancelled' : 'build_failed';
      out.result = `${configuration.name}: the build ${built.record.result === 'cancelled' ? 'was cancelled' : 'failed'}; nothing was installed.`;
      report.phase(out.outcome === 'cancelled' ? 'cancelled' : 'failed');
      throw new ToolError(`${out.result}\n${built.text}`, out);
    }
    const written =
      built.record.apks.find((a) => a.module === plan.module && a.variant === plan.variant) ??
      (built.record.apks.length === 1 ? built.record.apks[0] : undefined);
    let apkPath = written?.path ?? null;
    let note = '';
    if (apkPath === null) {
      const found = await ctx.bus.request(
        'project.find_apk',
        { root, module: plan.module, variant: plan.variant },
        { signal: ctx.signal },
      );
      apkPath = found.path;
      note = found.found ? ' (Gradle found it up to date: an earlier build wrote it)' : '';
      if (!found.found || apkPath === null) {
        out.outcome = 'install_failed';
        out.result = `${configuration.name}: built, but no APK of ${plan.module} ${plan.variant} was found: ${found.reason ?? 'none'}`;
        report.phase('failed');
        throw new ToolError(out.result, out);
      }
    }
    out.apk_path = apkPath;
    out.apk_written_by_this_build = written !== undefined;

    report.phase('installing');
    let installed;
    try {
      installed = await ctx.bus.request(
        'app.install',
        { serial: plan.device, root, apk_path: apkPath },
        { origin: ctx.origin },
      );
    } catch (err) {
      out.outcome = 'install_failed';
      out.result = `${configuration.name}: built, but installing ${apkPath} on ${plan.device} failed: ${failureText(err)}`;
      report.phase('failed');
      throw new ToolError(out.result, out);
    }
    out.package = installed.record.package;
    out.apk_sha256 = installed.record.apk_sha256;
    // Installed there: the configuration's last device from now on, as Run App records it.
    const unrecorded = await ctx.bus
      .request('project.record_run_device', { root, name: configuration.name, serial: plan.device })
      .then(
        () => null,
        (err: unknown) => `(${plan.device} could not be recorded as its last device: ${failureText(err)})`,
      );

    if (plan.activity !== null || plan.deep_link !== null) {
      report.phase('launching');
      try {
        if (plan.activity !== null) {
          const launched = await ctx.bus.request(
            'app.launch',
            { serial: plan.device, package: installed.record.package, activity: plan.activity },
            { origin: ctx.origin },
          );
          out.launch_output = launched.output;
          out.launch_timing =
            launched.method === 'am_start'
              ? {
                  total_ms: launched.total_ms,
                  wait_ms: launched.wait_ms,
                  launch_state: launched.launch_state,
                  displayed_ms: launched.displayed_ms,
                  fully_drawn_ms: launched.fully_drawn_ms,
                }
              : null;
          out.result = `${configuration.name}: built, installed and launched ${launched.component ?? launched.package} on ${plan.device}. ${launched.timing_line}`;
        } else {
          const opened = await ctx.bus.request(
            'intent.send',
            {
              serial: plan.device,
              mode: 'start',
              action: 'android.intent.action.VIEW',
              data_uri: plan.deep_link!,
              package: installed.record.package,
              extras: [],
            },
            { origin: ctx.origin },
          );
          out.launch_output = opened.output;
          out.result = `${configuration.name}: built, installed and opened ${plan.deep_link} on ${plan.device}.`;
        }
      } catch (err) {
        if (err instanceof BusError && err.code === 'INVALID') {
          throw err;
        }
        out.outcome = 'launch_failed';
        out.result = `${configuration.name}: built and installed, but the launch on ${plan.device} failed: ${failureText(err)}`;
        report.phase('failed');
        throw new ToolError(`${out.result}\n${installed.recorded}`, out);
      }
    } else {
      out.result = `${configuration.name}: built and installed on ${plan.device} (the configuration launches nothing).`;
    }
    report.phase('done');
    const text = [
      out.result,
      `APK: ${apkPath}${note}`,
      installed.recorded,
      `Logcat filter: ${out.logcat_filter}`,
      ...(unrecorded !== null ? [unrecorded] : []),
    ].join('\n');
    return { text, structured: out };
  },
});

export const runConfigurationTools = [runRunConfiguration];
