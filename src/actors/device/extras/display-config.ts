/**
 * A device's display configuration, changed with a guaranteed undo (issue 74): size and density
 * overrides (`wm size`, `wm density`), font scale (`settings put system font_scale`) and dark mode
 * (`cmd uimode night`). Before droidbus's first change on a device its values are recorded
 * (store/device-config-changes.ts) with the session that asked; they are given back by `restore`,
 * when that session ends (the device actor's `host.sessions` event), when this droidbus stops
 * serving the device, and by the next droidbus when the one that changed them died (kill -9).
 * While one session's changes stand, another session's change is refused BUSY.
 *
 * Limits: Android's compatibility definition (CDD 7.1.1.1) has a handheld's smallest width at least
 * 320 dp; Settings offers font sizes from 0.85 to 2.0 (Android 14's largest); densities from ldpi's
 * 120 to xxxhdpi's 640; an override larger than the panel is drawn scaled down, so it is refused.
 */
import { sh, type ShellCommand } from '../../../adb/shell-command.js';
import { BusError } from '../../../bus/errors.js';
import type {
  DisplayChange,
  DisplayConfig,
  PhysicalDisplay,
  ConfigChanges,
} from '../../../bus/messages/device-config.js';
import type { Origin } from '../../../bus/origin.js';
import type { ResponseOf } from '../../../bus/registry.js';
import { outputOf, type DeviceShell } from '../../../device/device-shell.js';
import { parseAppLocales, parseDisplayConfig } from '../../../device/parsers/display-config.js';
import { joinReads, READS, readCommand } from '../../../device/reads.js';
import {
  deviceConfigChangeOf,
  updateDeviceConfigChange,
  type DeviceConfigChange,
} from '../../../store/device-config-changes.js';
import { isProcessAlive } from '../../../util/process-info.js';

export const FONT_SCALE_RANGE = [0.85, 2] as const;
export const DENSITY_RANGE = [120, 640] as const;
/** CDD 7.1.1.1: a handheld's smallest width. */
export const MIN_SMALLEST_WIDTH_DP = 320;

type State = ResponseOf<'device.config_read'>;
const MARK = '@@droidbus-config@@';

/** The configuration now, in one round trip. */
export async function readDisplayConfig(
  serial: string,
  shell: DeviceShell,
): Promise<{ physical: PhysicalDisplay; current: DisplayConfig }> {
  const r = await shell(
    joinReads(
      MARK,
      readCommand(READS.wmSize),
      readCommand(READS.wmDensity),
      readCommand(READS.fontScale),
      readCommand(READS.nightMode),
      readCommand(READS.windowAnimationScale),
      readCommand(READS.transitionAnimationScale),
      readCommand(READS.animatorDurationScale),
      readCommand(READS.autoRotate),
      readCommand(READS.userRotation),
    ),
  );
  const [size = '', density = '', fontScale = '', night = '', ...rest] = r.stdout.split(MARK);
  const [windowScale = '', transitionScale = '', animatorScale = '', autoRotate = '', userRotation = ''] =
    rest;
  const parsed = parseDisplayConfig({
    size,
    density,
    fontScale,
    night,
    windowScale,
    transitionScale,
    animatorScale,
    autoRotate,
    userRotation,
  });
  if (parsed === null) {
    throw new BusError('FAILED', `${serial} did not say its display size: ${outputOf(r).slice(0, 200)}`);
  }
  return parsed;
}

/** What a change would make the display; refuses what the device does not support, with its limits. */
export function checkChange(physical: PhysicalDisplay, current: DisplayConfig, change: DisplayChange): void {
  const size = change.size !== undefined ? change.size : current.size;
  const density = change.density !== undefined ? change.density : current.density;
  const w = size?.width ?? physical.width;
  const h = size?.height ?? physical.height;
  const dpi = density ?? physical.density;
  const panel = `${physical.width}x${physical.height}`;
  if (
    size &&
    (Math.min(w, h) > Math.min(physical.width, physical.height) ||
      Math.max(w, h) > Math.max(physical.width, physical.height))
  ) {
    throw new BusError(
      'INVALID',
      `${w}x${h} is larger than the device's panel (${panel}): give a size up to ${panel}`,
    );
  }
  if (dpi < DENSITY_RANGE[0] || dpi > DENSITY_RANGE[1]) {
    throw new BusError(
      'INVALID',
      `density ${dpi} is outside ${DENSITY_RANGE[0]}–${DENSITY_RANGE[1]} dpi (ldpi to xxxhdpi; the device's own is ${physical.density})`,
    );
  }
  const smallest = Math.round((Math.min(w, h) * 160) / dpi);
  if (smallest < MIN_SMALLEST_WIDTH_DP) {
    throw new BusError(
      'INVALID',
      `${w}x${h} at ${dpi} dpi is ${smallest} dp wide; Android phones are at least ${MIN_SMALLEST_WIDTH_DP} dp (CDD 7.1.1.1): a larger size or a lower density`,
    );
  }
  const scale = change.font_scale;
  if (scale !== undefined && (scale < FONT_SCALE_RANGE[0] || scale > FONT_SCALE_RANGE[1])) {
    throw new BusError(
      'INVALID',
      `font scale ${scale} is outside ${FONT_SCALE_RANGE[0]}–${FONT_SCALE_RANGE[1]} (Settings' font sizes)`,
    );
  }
}

/** A size as `wm size` takes it. */
function sizeText(size: { width: number; height: number }): string {
  return `${size.width}x${size.height}`;
}

/** A float as Java's Float.toString writes it, as Settings stores it (`1.0`, `1.3`). */
function floatText(v: number): string {
  return Number.isInteger(v) ? v.toFixed(1) : String(v);
}

/** The device commands that set `to` where it differs from `from` (null size, density or font scale: reset). */
function commandsFor(
  from: DisplayConfig,
  to: Partial<DisplayConfig>,
): { setting: string; command: ShellCommand }[] {
  const out: { setting: string; command: ShellCommand }[] = [];
  if (to.size !== undefined && JSON.stringify(to.size) !== JSON.stringify(from.size)) {
    out.push({
      setting: 'size',
      command: to.size === null ? sh`wm size reset` : sh`wm size ${sizeText(to.size)}`,
    });
  }
  if (to.density !== undefined && to.density !== from.density) {
    out.push({
      setting: 'density',
      command: to.density === null ? sh`wm density reset` : sh`wm density ${String(to.density)}`,
    });
  }
  if (to.font_scale !== undefined && to.font_scale !== from.font_scale) {
    out.push({
      setting: 'font_scale',
      command:
        to.font_scale === null
          ? sh`settings delete system font_scale`
          : sh`settings put system font_scale ${floatText(to.font_scale)}`,
    });
  }
  if (to.night !== undefined && to.night !== null && to.night !== from.night) {
    out.push({ setting: 'night', command: sh`cmd uimode night ${to.night}` });
  }
  for (const [key, name] of ANIMATION_SETTINGS) {
    const want = to.animations?.[key];
    if (want !== undefined && want !== from.animations?.[key]) {
      out.push({
        setting: 'animations',
        command:
          want === null
            ? sh`settings delete global ${name}`
            : sh`settings put global ${name} ${floatText(want)}`,
      });
    }
  }
  const rotation = to.rotation;
  if (rotation !== undefined && rotation.user !== null && rotation.user !== from.rotation?.user) {
    out.push({
      setting: 'rotation',
      command: sh`settings put system user_rotation ${String(rotation.user)}`,
    });
  }
  if (
    rotation !== undefined &&
    rotation.accelerometer !== null &&
    rotation.accelerometer !== from.rotation?.accelerometer
  ) {
    out.push({
      setting: 'rotation',
      command: sh`settings put system accelerometer_rotation ${rotation.accelerometer ? '1' : '0'}`,
    });
  }
  return out;
}

/** The animation scales and the global settings that hold them. */
const ANIMATION_SETTINGS = [
  ['window', 'window_animation_scale'],
  ['transition', 'transition_animation_scale'],
  ['animator', 'animator_duration_scale'],
] as const;

async function run(
  serial: string,
  shell: DeviceShell,
  commands: { setting: string; command: ShellCommand }[],
): Promise<void> {
  for (const { setting, command } of commands) {
    const r = await shell(command);
    if (r.exitCode !== 0 || /^(Error|Exception)/m.test(r.stderr)) {
      throw new BusError('FAILED', `could not set ${setting} on ${serial}: ${outputOf(r).slice(0, 300)}`);
    }
  }
}

/** An app's locales now (Android 13+). */
async function readAppLocales(serial: string, shell: DeviceShell, pkg: string): Promise<string> {
  const r = await shell(readCommand(READS.appLocales, { package: pkg }));
  const tags = parseAppLocales(r.stdout);
  if (tags === null) {
    throw new BusError(
      /Unknown package/.test(r.stdout) ? 'NOT_FOUND' : 'FAILED',
      `could not read ${pkg}'s locales on ${serial}: ${outputOf(r).slice(0, 200)}`,
    );
  }
  return tags;
}

/** Sets an app's locales ('' gives it the system's again). */
async function setAppLocales(serial: string, shell: DeviceShell, pkg: string, tags: string): Promise<void> {
  const r = await shell(
    tags === ''
      ? sh`cmd locale set-app-locales ${pkg}`
      : sh`cmd locale set-app-locales ${pkg} --locales ${tags}`,
  );
  if (r.exitCode !== 0 || /Unknown package|Exception/.test(outputOf(r))) {
    throw new BusError('FAILED', `could not set ${pkg}'s locales on ${serial}: ${outputOf(r).slice(0, 300)}`);
  }
}

/** Who a change belongs to: an agent's session, or the person (host, CLI). */
function ownerOf(origin: Origin): string {
  return origin.kind === 'agent' ? `session ${origin.session_id}` : origin.kind;
}

function changesOf(c: DeviceConfigChange | undefined | null): ConfigChanges | null {
  return c ? { previous: c.previous, settings: c.settings, by: ownerOf(c.by), since: c.at } : null;
}

/** droidbus's display changes on `serial` not given back yet (get_device_info says them). */
export function droidbusChanges(serial: string): ConfigChanges | null {
  return changesOf(deviceConfigChangeOf(serial));
}

/** Whether a recorded change is still someone's: its process lives (this one's are, until given back). */
function isHeld(c: DeviceConfigChange): boolean {
  return c.pid === process.pid || isProcessAlive(c.pid);
}

/** Refuses BUSY when `c`, the change recorded on `serial`, is another session's and still stands. */
function refuseOthers(serial: string, c: DeviceConfigChange | undefined, origin: Origin): void {
  if (c !== undefined && isHeld(c) && ownerOf(c.by) !== ownerOf(origin)) {
    throw new BusError(
      'BUSY',
      `${serial}'s display configuration is changed by ${ownerOf(c.by)} (${c.settings.join(', ')}, since ${c.at}); it is given back when that session ends, or by its restore`,
    );
  }
}

/** Refuses BUSY when another session's changes on `serial` stand (check_layout asks before it starts). */
export function requireConfigOwner(serial: string, origin: Origin): void {
  refuseOthers(serial, deviceConfigChangeOf(serial), origin);
}

/** The state an answer carries: the configuration, and droidbus's changes not given back. */
export async function configState(serial: string, shell: DeviceShell): Promise<State> {
  return { ...(await readDisplayConfig(serial, shell)), changed: changesOf(deviceConfigChangeOf(serial)) };
}

/**
 * Changes the configuration, recording the values before droidbus's first change. BUSY while
 * another session's changes stand (a dead process's are taken over, their first values kept).
 */
export async function setDisplayConfig(
  serial: string,
  shell: DeviceShell,
  change: DisplayChange,
  origin: Origin,
  sdk: () => Promise<number | null>,
): Promise<ResponseOf<'device.config_set'>> {
  const { physical, current } = await readDisplayConfig(serial, shell);
  checkChange(physical, current, change);
  const commands = commandsFor(current, change);
  const locale = change.app_locale;
  let localeBefore: string | null = null;
  if (locale !== undefined) {
    const level = await sdk();
    if (level !== null && level < 33) {
      throw new BusError(
        'INVALID',
        `an app's own locale needs Android 13 (API 33); ${serial} is API ${level}`,
      );
    }
    localeBefore = await readAppLocales(serial, shell, locale.package);
  }
  const recorded = await updateDeviceConfigChange(serial, (c) => {
    // Under the lock: the record read here is the one written.
    refuseOthers(serial, c, origin);
    const locales = [...(c?.app_locales ?? [])];
    if (locale !== undefined && localeBefore !== null && !locales.some((l) => l.package === locale.package)) {
      locales.push({ package: locale.package, previous: localeBefore });
    }
    if (commands.length === 0 && c === undefined && locales.length === 0) {
      return null;
    }
    return {
      serial,
      previous: c?.previous ?? current,
      settings: [
        ...new Set([
          ...(c?.settings ?? []),
          ...commands.map((x) => x.setting),
          ...(locales.length > 0 ? ['app_locale'] : []),
        ]),
      ],
      ...(locales.length > 0 ? { app_locales: locales } : {}),
      pid: process.pid,
      by: origin,
      at: c?.at ?? new Date().toISOString(),
    };
  });
  await run(serial, shell, commands);
  if (locale !== undefined) {
    await setAppLocales(serial, shell, locale.package, locale.locales);
  }
  return {
    before: current,
    ...(await readDisplayConfig(serial, shell)),
    changed: changesOf(recorded),
  };
}

/**
 * Gives back what droidbus changed on the device; the settings given back. `origin` (when given)
 * must own the changes or be the person at the host.
 */
export async function restoreDisplayConfig(
  serial: string,
  shell: DeviceShell,
  origin: Origin | null,
): Promise<ResponseOf<'device.config_restore'>> {
  const c = deviceConfigChangeOf(serial);
  if (c === undefined) {
    return { ...(await configState(serial, shell)), restored: [] };
  }
  if (origin !== null && origin.kind === 'agent' && isHeld(c) && ownerOf(c.by) !== ownerOf(origin)) {
    throw new BusError(
      'BUSY',
      `${serial}'s display configuration was changed by ${ownerOf(c.by)}: only that session (or the person at the host) gives it back`,
    );
  }
  const { current } = await readDisplayConfig(serial, shell);
  const commands = commandsFor(current, c.previous);
  await run(serial, shell, commands);
  for (const l of c.app_locales ?? []) {
    await setAppLocales(serial, shell, l.package, l.previous);
  }
  await updateDeviceConfigChange(serial, () => null);
  return {
    ...(await readDisplayConfig(serial, shell)),
    changed: null,
    restored: [
      ...new Set([
        ...commands.map((x) => x.setting),
        ...((c.app_locales ?? []).length > 0 ? ['app_locale'] : []),
      ]),
    ],
  };
}

/** The recorded change of `serial` a dead droidbus left, if any (the next one gives it back). */
export function orphanedChange(serial: string): DeviceConfigChange | undefined {
  const c = deviceConfigChangeOf(serial);
  return c !== undefined && !isHeld(c) ? c : undefined;
}

/** Whether `serial`'s recorded change was made in this process by a host session that is no longer live. */
export function endedSessionChange(serial: string, live: ReadonlySet<string>): boolean {
  const c = deviceConfigChangeOf(serial);
  return (
    c !== undefined &&
    c.pid === process.pid &&
    c.by.kind === 'agent' &&
    !c.by.standalone &&
    !live.has(c.by.session_id)
  );
}

/** Whether `serial` has a change this process made (given back when it stops serving the device). */
export function ownChange(serial: string): boolean {
  return deviceConfigChangeOf(serial)?.pid === process.pid;
}
