/**
 * The device actor's app handlers: installs, launches, restarts, stops, permissions, intents and
 * the app list. Each change runs in the actor's `app` lane; a launch answers the screen it left.
 */
import { changePermission, stopApp } from '../apps/app-control.js';
import { installApk } from '../apps/app-install.js';
import { launchApp, restartApp } from '../apps/app-launch.js';
import { sendIntent } from '../apps/intent-command.js';
import { requireBroadcastScope, requirePackageInScope } from '../apps/package-scope.js';
import { changingScreen, screenLeft, type DeviceHandlers } from '../device-state.js';
import { listApps } from '../extras/device-extras.js';

export const appHandlers = {
  'device.send_intent': async (p, state, ctx) => {
    if (p.mode === 'broadcast') {
      await requireBroadcastScope(ctx, p.scope, p.component?.slice(0, p.component.indexOf('/')) ?? p.package);
    }
    return changingScreen(state, () => sendIntent(state.device, p, ctx));
  },
  'device.list_apps': (p, state, ctx) => listApps(state.device, state.labels, p, ctx),
  'device.install_app': (p, state, ctx) => installApk(state.device, p, ctx),
  'device.launch_app': async (p, state, ctx) => {
    const before = state.last;
    const launched = await changingScreen(state, () => launchApp(state.device, p, ctx));
    const { after, after_note } = await screenLeft(state, ctx, before);
    return { ...launched, after, after_note };
  },
  'device.restart_app': async (p, state, ctx) => {
    await requirePackageInScope(ctx, p.scope, p.package);
    const before = state.last;
    const restarted = await changingScreen(state, () => restartApp(state.device, p, ctx));
    const { after, after_note } = await screenLeft(state, ctx, before);
    return { ...restarted, after, after_note };
  },
  'device.stop_app': async (p, state, ctx) => {
    await requirePackageInScope(ctx, p.scope, p.package);
    return changingScreen(state, () => stopApp(state.device, p, ctx));
  },
  'device.set_permission': async (p, state, ctx) => {
    await requirePackageInScope(ctx, p.scope, p.package);
    return changePermission(state.device, p, ctx);
  },
} satisfies Partial<DeviceHandlers>;
