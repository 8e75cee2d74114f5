/**
 * The device actor, one per device: it owns the device's handle, UI Automator captures (one at a
 * time, also across processes), input and screenshots for its device. Captures and input share the
 * `ui` lane so an action never lands in the middle of a capture; screenshots and facts run beside
 * them. Its handlers live by concern in handlers/ (as Appium's driver keeps one object per device
 * server and its commands beside it); this file owns the state and routes.
 */
import { webHandlers } from './handlers/web.js';
import { deviceOf, forgetDevice } from '../../device/adb-instance.js';
import { defineActor } from '../actor.js';
import type { DeviceState } from './device-state.js';
import { appHandlers } from './handlers/apps.js';
import { extrasHandlers } from './handlers/extras.js';
import { fileHandlers } from './handlers/files.js';
import { readHandlers } from './handlers/reads.js';
import { uiHandlers } from './handlers/ui.js';
import { UiHelper } from './ui/ui-helper-reader.js';
import { UiLoan } from './ui/ui-loan.js';
import { deviceShell } from '../../device/device-shell.js';
import {
  endedSessionChange,
  orphanedChange,
  ownChange,
  restoreDisplayConfig,
} from './extras/display-config.js';
import type { ActorContext } from '../actor.js';
import type { Device } from '../../device/device.js';

/** Gives `serial` back the display configuration droidbus changed; says why it could not. */
function giveBackConfig(
  device: Device,
  ctx: ActorContext,
  why: string,
  signal = new AbortController().signal,
): Promise<void> {
  return restoreDisplayConfig(device.serial, deviceShell(device, signal), null).then(
    (r) => {
      if (r.restored.length > 0) {
        ctx.log.info(`gave ${device.serial} back its ${r.restored.join(', ')} (${why})`);
      }
    },
    (err: unknown) =>
      ctx.log.warn(`could not give ${device.serial} back its display configuration (${why}): ${String(err)}`),
  );
}

export default defineActor<'device', DeviceState>({
  kind: 'device',
  concurrency: 4,
  lanes: {
    'device.ui_hierarchy': 'ui',
    'device.ui_clickables': 'ui',
    'device.ui_find': 'ui',
    'device.ui_parent': 'ui',
    'device.ui_compare': 'ui',
    'device.ui_wait': 'ui',
    'device.ui_select': 'ui',
    'device.ui_input': 'ui',
    'device.ui_scroll_until': 'ui',
    'device.act_on_notification': 'ui',
    'device.ui_lend': 'ui',
    // Display changes and the captures under them, never between another UI action's steps.
    'device.check_layout': 'ui',
    // One app change at a time per device: an install, then its launch, never interleaved.
    'device.install_app': 'app',
    'device.launch_app': 'app',
    'device.restart_app': 'app',
    'device.stop_app': 'app',
    'device.set_permission': 'app',
  },
  startTimeoutMs: 30_000,
  async start(ctx) {
    const serial = ctx.key!;
    // Only devices adb lists as `device` get an actor; otherwise the start fails DEVICE_OFFLINE.
    await ctx.bus.request('devices.require', { serial });
    const device = deviceOf(serial);
    const helper = new UiHelper(device);
    const state: DeviceState = {
      device,
      serial,
      last: null,
      read: null,
      neverIdleSince: null,
      actions: 0,
      lastActions: 0,
      lastAfter: false,
      helper,
      labels: new Map(),
      webForwards: new Map(),
      loan: new UiLoan(helper),
    };
    // A droidbus that died (kill -9, a crash) left this device changed: given back now it is here.
    if (orphanedChange(serial) !== undefined) {
      void giveBackConfig(device, ctx, 'the droidbus that changed it is gone');
    }
    return state;
  },
  async stop(state, ctx) {
    // This droidbus stops serving the device (it quits): what it changed goes back first.
    if (ownChange(state.serial)) {
      await giveBackConfig(state.device, ctx, 'droidbus stops', AbortSignal.timeout(4_000));
    }
    await state.loan.end();
    // Leaving (the process ends, the device goes): the phone's screen may sleep again.
    await state.helper.release();
    // Its devtools forwards are the adb server's: removed, or they would outlive droidbus.
    await Promise.all(
      [...state.webForwards.values()].map((port) => state.device.removeForward(port).catch(() => undefined)),
    );
    forgetDevice(state.serial);
    // Its instrumentation stream and port forward went with the device: read it afresh when it is back.
    state.helper.forget();
  },
  handlers: {
    ...uiHandlers,
    ...appHandlers,
    ...fileHandlers,
    ...extrasHandlers,
    ...readHandlers,
    ...webHandlers,
  },
  events: {
    // A host session that ends takes its display changes with it.
    'host.sessions': ({ sessions }, state, ctx) => {
      if (endedSessionChange(state.serial, new Set(sessions.map((s) => s.session_id)))) {
        void giveBackConfig(state.device, ctx, 'the session that changed it ended');
      }
    },
  },
});
