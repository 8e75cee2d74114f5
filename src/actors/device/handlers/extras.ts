/**
 * The device actor's other handlers: screenshots, facts, notifications, windows, location, network
 * and orientation.
 */
import { deviceShell } from '../../../device/device-shell.js';
import { capture, type DeviceHandlers } from '../device-state.js';
import { deviceInfo } from '../device-info.js';
import { listWindows, readLocation } from '../extras/device-extras.js';
import { setEmulatorLocation } from '../extras/emulator-geo.js';
import { setNetworkState } from '../extras/network-state.js';
import { actOnNotification, listNotifications } from '../extras/notification-actions.js';
import { setOrientation } from '../extras/orientation.js';
import { routeProxy, unrouteProxy } from '../extras/proxy-route.js';
import { appNetworkSecurity } from '../apps/app-network-security.js';
import { screenshot } from '../screenshot/screenshot-handler.js';
import { configState, restoreDisplayConfig, setDisplayConfig } from '../extras/display-config.js';
import { checkLayout } from '../layout/check-layout.js';

export const extrasHandlers = {
  'device.screenshot': (p, state, ctx) => screenshot(state, p, ctx),
  'device.info': (_p, state, ctx) => deviceInfo(state.device, ctx),
  'device.notifications': (p, state, ctx) => listNotifications(state.device, p, ctx),
  'device.act_on_notification': (p, state, ctx) =>
    actOnNotification(state.device, p, () => capture(state, ctx), ctx),
  'device.windows': (_p, state, ctx) => listWindows(state.device, ctx),
  'device.location': (_p, state, ctx) => readLocation(state.device, ctx),
  'device.set_emulator_location': (p, state, ctx) =>
    setEmulatorLocation(state.serial, p.latitude, p.longitude, p.altitude, ctx.signal),
  'device.network': (p, state, ctx) =>
    setNetworkState(state.serial, deviceShell(state.device, ctx.signal), p),
  'device.check_layout': (p, state, ctx) => checkLayout(state, p, ctx),
  'device.config_read': (_p, state, ctx) => configState(state.serial, deviceShell(state.device, ctx.signal)),
  'device.config_set': (p, state, ctx) =>
    setDisplayConfig(state.serial, deviceShell(state.device, ctx.signal), p.change, ctx.origin, () =>
      state.device.sdk(ctx.signal),
    ),
  'device.config_restore': (_p, state, ctx) =>
    restoreDisplayConfig(state.serial, deviceShell(state.device, ctx.signal), ctx.origin),
  'device.orientation': (p, state, ctx) =>
    setOrientation(state.serial, deviceShell(state.device, ctx.signal), p),
  'device.proxy_route': async (p, state, ctx) => {
    const r = await routeProxy(state.device, p, ctx.signal);
    state.proxyPort = p.port;
    return r;
  },
  'device.app_network_security': (p, state, ctx) => appNetworkSecurity(state.device, p, ctx.signal),
  'device.proxy_unroute': async (p, state, ctx) => {
    state.proxyPort = null;
    return unrouteProxy(state.device, p, ctx.signal);
  },
} satisfies Partial<DeviceHandlers>;
