import { z } from 'zod';
import { activityClassSchema, permissionSchema } from '../../bus/messages/admin.js';
import { installRecordSchema } from '../../bus/messages/app-events.js';
import { packageNameSchema } from '../../bus/messages/extras.js';
import { ArgumentError } from '../define-tool.js';
import { deviceResponseOf, responseOf } from '../responses.js';
import { defineDeviceTool } from '../define-device-tool.js';
import type { DeviceToolContext } from '../define-device-tool.js';
import { describeAfter } from './ui-shared.js';
import { allowForeignPackage, packageScope } from './admin-scope.js';

/** The device-admin tools that install, launch, stop and restart apps and change their permissions. */

const appPackage = packageNameSchema.describe('Application id (com.example.app)');

export const installApk = defineDeviceTool({
  name: 'install_apk',
  answers: 'device.install_app',
  toolset: 'device-admin',
  kind: 'destructive',
  title: 'Install an APK',
  description:
    "Installs an APK the project's build wrote (find_apk_path or run_gradle_task names it). The install is matched to its build by hash, so its crashes deobfuscate against its own mapping.",
  input: z.object({
    apk_path: z
      .string()
      .min(1)
      .max(4096)
      .describe("The APK in the project's build outputs, e.g. app/build/outputs/apk/debug/app-debug.apk"),
  }),
  output: responseOf('device.install_app')
    .pick({ output: true })
    .extend({ device_serial: z.string(), record: installRecordSchema }),
  projectIndependent: false,
  async handle(args, ctx) {
    const root = ctx.session.project.root;
    if (root === null) {
      throw new ArgumentError(
        "No Android project is selected, so no APK can be installed: install_apk installs only APKs from the project's build outputs. Start droidbus with --project PATH.",
      );
    }
    const r = await ctx.bus.request(
      'device.install_app',
      { serial: ctx.serial, root, apk_path: args.apk_path },
      { signal: ctx.signal, origin: ctx.origin },
    );
    const rec = r.record;
    const text = [
      `Installed ${rec.package}${rec.version_name !== null ? ` ${rec.version_name} (${rec.version_code ?? '?'})` : ''} on ${ctx.serial} from ${rec.apk_path} (${rec.apk_size} bytes): ${r.output.split('\n')[0] ?? ''}`,
      r.launchable_activity !== null
        ? `launch_app with package ${rec.package} starts ${r.launchable_activity}.`
        : `${rec.package} has no launcher activity; pass activity to launch_app.`,
      r.recorded,
    ].join('\n');
    return { text, structured: { device_serial: ctx.serial, record: rec, output: r.output } };
  },
});

export const launchApp = defineDeviceTool({
  name: 'launch_app',
  answers: 'device.launch_app',
  toolset: 'device-admin',
  kind: 'write',
  title: 'Launch an app',
  description:
    'Starts an app with `am start -W` (the named activity, else its launcher) and reports its launch time and state. Without a launcher activity it falls back to the monkey (no time).',
  input: z.object({
    package: appPackage,
    activity: activityClassSchema.optional(),
  }),
  output: responseOf('device.launch_app').extend({ device_serial: z.string() }),
  async handle(args, ctx) {
    const r = await ctx.bus.request(
      'device.launch_app',
      {
        serial: ctx.serial,
        package: args.package,
        ...(args.activity !== undefined ? { activity: args.activity } : {}),
      },
      { signal: ctx.signal, origin: ctx.origin },
    );
    // A launch puts up the app's screen: what it differs from (whatever was on screen before) is not
    // what was asked, so the answer names the screen and its state, not a comparison.
    const after = r.after && {
      ...r.after,
      summary: '',
      appeared: [],
      disappeared: [],
      changed_elements: [],
    };
    return {
      text: `Launched ${r.component ?? r.package} on ${ctx.serial}.\n${r.timing_line}\n${describeAfter({ ...r, after, then: null })}`,
      structured: { device_serial: ctx.serial, ...r },
      steps: [{ do: 'launch', package: args.package, clear_state: false }],
    };
  },
});

export const stopApp = defineDeviceTool({
  name: 'stop_app',
  answers: 'device.stop_app',
  toolset: 'device-admin',
  kind: 'destructive',
  title: 'Stop an app',
  description:
    'Force-stops an app (`am force-stop`; its alarms and jobs are cancelled until its next launch).',
  input: z.object({
    package: appPackage,
    allow_foreign_package: allowForeignPackage,
  }),
  output: deviceResponseOf('device.stop_app'),
  projectIndependent: false,
  async handle(args, ctx) {
    const r = await ctx.bus.request(
      'device.stop_app',
      { serial: ctx.serial, package: args.package, scope: packageScope(ctx, args.allow_foreign_package) },
      { signal: ctx.signal, origin: ctx.origin },
    );
    const text = !r.installed
      ? `${r.package} is not installed on ${ctx.serial}; nothing to stop.`
      : `Stopped ${r.package} on ${ctx.serial} (${r.was_running ? 'it was running' : 'it was not running'}).`;
    return {
      text,
      structured: { device_serial: ctx.serial, ...r },
      steps: r.installed ? [{ do: 'stop', package: args.package }] : [],
    };
  },
});

export const restartApp = defineDeviceTool({
  name: 'restart_app',
  answers: 'device.restart_app',
  toolset: 'device-admin',
  kind: 'destructive',
  title: 'Restart an app',
  description: 'Force-stops an app and cold-starts its launcher activity, with the launch times and state.',
  input: z.object({
    package: appPackage,
    clear_data: z
      .boolean()
      .default(false)
      .describe("Wipe the app's data and runtime permissions first (pm clear); needs device_serial"),
    allow_foreign_package: allowForeignPackage,
  }),
  output: responseOf('device.restart_app')
    .pick({
      package: true,
      component: true,
      method: true,
      launch_state: true,
      cleared: true,
      was_running: true,
      timing_line: true,
    })
    .extend({
      device_serial: z.string(),
      total_time_ms: z.number().int().nullable(),
      wait_time_ms: z.number().int().nullable(),
      display_time_ms: z.number().int().nullable(),
    })
    .extend(responseOf('device.restart_app').pick({ after: true, after_note: true }).shape),
  projectIndependent: false,
  async handle(args, ctx) {
    if (args.clear_data && args.device_serial === undefined) {
      throw new ArgumentError(
        'clear_data wipes the app’s data, so it needs device_serial: name the device explicitly (list_devices).',
      );
    }
    const { serial } = ctx;
    const r = await ctx.bus.request(
      'device.restart_app',
      {
        serial,
        package: args.package,
        clear_data: args.clear_data,
        scope: packageScope(ctx, args.allow_foreign_package),
      },
      { signal: ctx.signal, origin: ctx.origin },
    );
    const structured = {
      device_serial: serial,
      package: r.package,
      component: r.component,
      method: r.method,
      total_time_ms: r.total_ms,
      wait_time_ms: r.wait_ms,
      launch_state: r.launch_state,
      display_time_ms: r.displayed_ms,
      cleared: r.cleared,
      was_running: r.was_running,
      timing_line: r.timing_line,
      after: r.after,
      after_note: r.after_note,
    };
    return {
      text: `Restarted ${r.component ?? r.package} on ${serial}${r.cleared ? ' after clearing its data' : ''}.\n${r.timing_line}\n${describeAfter({ ...r, then: null })}`,
      structured,
      steps: [{ do: 'launch', package: args.package, clear_state: r.cleared }],
    };
  },
});

const permissionOutput = z
  .object({ device_serial: z.string() })
  .extend(responseOf('device.set_permission').shape);

const permissionInput = z.object({
  package: appPackage,
  permission: permissionSchema,
  allow_foreign_package: allowForeignPackage,
});

/** grant_runtime_permission and revoke_runtime_permission: one `pm grant`/`pm revoke` through the device actor. */
async function changePermission(
  args: z.infer<typeof permissionInput>,
  ctx: DeviceToolContext,
  grant: boolean,
) {
  const { serial } = ctx;
  const r = await ctx.bus.request(
    'device.set_permission',
    {
      serial,
      package: args.package,
      permission: args.permission,
      grant,
      scope: packageScope(ctx, args.allow_foreign_package),
    },
    { signal: ctx.signal, origin: ctx.origin },
  );
  return {
    text: grant
      ? `Granted ${r.permission} to ${r.package} on ${serial}.`
      : `Revoked ${r.permission} from ${r.package} on ${serial}${r.process_killed ? '; Android stopped its process' : ''}.`,
    structured: { device_serial: serial, ...r },
  };
}

export const grantRuntimePermission = defineDeviceTool({
  name: 'grant_runtime_permission',
  answers: 'device.set_permission',
  toolset: 'device-admin',
  kind: 'write',
  title: 'Grant a runtime permission',
  description: 'Grants a runtime permission the app requests (`pm grant`); refusals are tool errors.',
  input: permissionInput,
  output: permissionOutput,
  projectIndependent: false,
  handle: (args, ctx) => changePermission(args, ctx, true),
});

export const revokeRuntimePermission = defineDeviceTool({
  name: 'revoke_runtime_permission',
  answers: 'device.set_permission',
  toolset: 'device-admin',
  kind: 'destructive',
  title: 'Revoke a runtime permission',
  description:
    'Revokes a runtime permission (`pm revoke`; Android stops the app if it runs); refusals are tool errors.',
  input: permissionInput,
  output: permissionOutput,
  projectIndependent: false,
  handle: (args, ctx) => changePermission(args, ctx, false),
});

export const adminAppTools = [
  installApk,
  launchApp,
  stopApp,
  restartApp,
  grantRuntimePermission,
  revokeRuntimePermission,
];
