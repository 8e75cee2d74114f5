/**
 * `device.check_layout` (issue 74): the screen as it is, then under each configuration asked for,
 * each captured (tree and screenshot) and read for problems (layout-findings.ts); one contact sheet
 * of them all. Configurations are applied as set_display_config applies them — recorded first, so
 * even a crash mid-check is given back — and the device gets its configuration and orientation back
 * at the end, whatever happened.
 */
import { BusError } from '../../../bus/errors.js';
import {
  describeDisplay,
  type DisplayChange,
  type DisplayConfig,
  type LayoutConfig,
} from '../../../bus/messages/device-config.js';
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import { deviceShell, outputOf } from '../../../device/device-shell.js';
import { sh } from '../../../adb/shell-command.js';
import { pmFailure } from '../../../device/parsers/am-start.js';
import { READS, readCommand } from '../../../device/reads.js';
import type { UiResult, UiTree } from '../../../device/ui-dump/ui-types.js';
import { deviceConfigChangeOf } from '../../../store/device-config-changes.js';
import type { HandlerContext } from '../../actor.js';
import { capture, type DeviceState } from '../device-state.js';
import {
  readDisplayConfig,
  requireConfigOwner,
  restoreDisplayConfig,
  setDisplayConfig,
} from '../extras/display-config.js';
import { screenshots } from '../screenshot/screenshot-handler.js';
import type { SheetTile } from './layout-sheet.js';
import { untranslated } from './layout-findings.js';

type Answer = ResponseOf<'device.check_layout'>;

function unwrap<T>(r: UiResult<T>): T {
  if (!r.ok) {
    throw new BusError('FAILED', r.error.message);
  }
  return r.value;
}

/** The change that puts `c` over the configuration `from` (what `c` leaves out stays as `from` has it). */
function changeFor(from: DisplayConfig, c: LayoutConfig): DisplayChange {
  return {
    size: c.size ?? from.size,
    density: c.density ?? from.density,
    ...(c.font_scale !== undefined || from.font_scale !== null
      ? { font_scale: c.font_scale ?? from.font_scale! }
      : {}),
    ...(c.night !== undefined || from.night !== null ? { night: c.night ?? from.night! } : {}),
    ...(from.animations !== undefined ? { animations: from.animations } : {}),
    // An orientation locks the rotation (portrait 0, landscape 1); else the device's own comes back.
    ...(c.orientation !== undefined
      ? { rotation: { accelerometer: false, user: c.orientation === 'landscape' ? 1 : 0 } }
      : from.rotation !== undefined
        ? { rotation: from.rotation }
        : {}),
  };
}

/**
 * Starts the screen afresh (`am start -W -S`: the app stopped first, so it starts in the
 * configuration as it is now): an activity, or what handles a deep link.
 */
async function relaunch(
  state: DeviceState,
  ctx: HandlerContext,
  r: PayloadOf<'device.check_layout'>['relaunch'],
): Promise<void> {
  if (r === null) {
    return;
  }
  const command =
    'component' in r
      ? sh`am start -W -S -n ${r.component}`
      : sh`am start -W -S -a android.intent.action.VIEW -d ${r.deep_link}`;
  const out = await deviceShell(state.device, ctx.signal)(command);
  const failure = pmFailure(outputOf(out), out.exitCode);
  if (failure !== null) {
    throw new BusError(
      'FAILED',
      `could not start ${'component' in r ? r.component : r.deep_link}: ${failure}`,
    );
  }
}

/** The screen's capture and screenshot now, and its findings against the first configuration's tree. */
async function look(
  state: DeviceState,
  ctx: HandlerContext,
  density: number,
  baseline: UiTree | null,
): Promise<{ tree: UiTree; png: Uint8Array; findings: Awaited<ReturnType<typeof findingsOf>> }> {
  const cap = await capture(state, ctx);
  const raw = await state.device.exec(readCommand(READS.screencap), {
    signal: ctx.signal,
    timeoutMs: 30_000,
    maxBytes: 33 * 1024 * 1024,
  });
  const png = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
  return { tree: cap.tree, png, findings: await findingsOf(png, cap.tree, density, baseline, ctx) };
}

async function findingsOf(
  png: Uint8Array,
  tree: UiTree,
  density: number,
  baseline: UiTree | null,
  ctx: HandlerContext,
) {
  return unwrap(
    await screenshots().run({ op: 'layout', png, tree, density, baseline }, { signal: ctx.signal }),
  );
}

/** The app a capture shows (its application window's package); null when none does. */
function appOf(tree: UiTree): string | null {
  const w = tree.windows.find((x) => x.kind === 'application');
  return w?.package || tree.nodes[tree.roots[0] ?? -1]?.package || null;
}

/** What the check changed and must give back: the device before it, and the app whose locale it set. */
interface Before {
  config: DisplayConfig;
  /** The session had changes of its own standing (they stay, recorded). */
  recorded: boolean;
  /** The app whose locales the check set, with the tags it had. */
  locale: { package: string; locales: string } | null;
}

/** Gives the device back its configuration, orientation and app locale as they were before the check. */
async function giveBack(state: DeviceState, before: Before, ctx: HandlerContext): Promise<string[]> {
  // Its own deadline: a cancelled check still gives the device back.
  const shell = deviceShell(state.device, AbortSignal.timeout(30_000));
  if (!before.recorded) {
    return (await restoreDisplayConfig(state.serial, shell, ctx.origin)).restored;
  }
  // The session had changed it before the check: back to that, its first values still recorded.
  const r = await setDisplayConfig(
    state.serial,
    shell,
    {
      ...changeFor(before.config, { name: 'before' }),
      ...(before.locale ? { app_locale: before.locale } : {}),
    },
    ctx.origin,
    () => state.device.sdk(),
  );
  const changed = (Object.keys(r.before) as (keyof DisplayConfig)[]).filter(
    (k) => JSON.stringify(r.before[k]) !== JSON.stringify(r.current[k]),
  );
  return [...changed, ...(before.locale ? ['app_locale'] : [])];
}

/** One configuration applied over the device as it was (its locale on `app`, or the app's own back). */
async function apply(
  state: DeviceState,
  ctx: HandlerContext,
  before: Before,
  c: LayoutConfig,
  app: string | null,
): Promise<DisplayConfig> {
  const shell = deviceShell(state.device, ctx.signal);
  const locale =
    c.locale !== undefined && app !== null
      ? { package: app, locales: c.locale }
      : before.locale !== null
        ? before.locale
        : undefined;
  const set = await setDisplayConfig(
    state.serial,
    shell,
    { ...changeFor(before.config, c), ...(locale !== undefined ? { app_locale: locale } : {}) },
    ctx.origin,
    () => state.device.sdk(ctx.signal),
  );
  if (c.locale !== undefined && app !== null && before.locale === null) {
    const tags = deviceConfigChangeOf(state.serial)?.app_locales?.find((l) => l.package === app)?.previous;
    before.locale = { package: app, locales: tags ?? '' };
  }
  return set.current;
}

export async function checkLayout(
  state: DeviceState,
  p: PayloadOf<'device.check_layout'>,
  ctx: HandlerContext,
): Promise<Answer> {
  requireConfigOwner(state.serial, ctx.origin);
  const shell = deviceShell(state.device, ctx.signal);
  const { physical, current } = await readDisplayConfig(state.serial, shell);
  const sdk = await state.device.sdk(ctx.signal);
  const before: Before = {
    config: current,
    recorded: deviceConfigChangeOf(state.serial) !== undefined,
    locale: null,
  };
  const configs: Answer['configs'] = [];
  const tiles: SheetTile[] = [];
  let n = 0;
  let baseline: UiTree | null = null;
  let restored: string[] = [];
  try {
    for (const c of [{ name: 'as is' } as LayoutConfig, ...p.configs]) {
      if (c.locale !== undefined && (sdk === null || sdk < 33)) {
        configs.push({
          name: c.name,
          description: `locale ${c.locale}`,
          display: { ...physical },
          findings: [],
          skipped: `an app's own locale needs Android 13 (API 33); this device is API ${sdk ?? 'unknown'}`,
        });
        continue;
      }
      // The configuration now: as it was for the first look, as the change left it after.
      const now = baseline === null ? current : await apply(state, ctx, before, c, appOf(baseline));
      await relaunch(state, ctx, p.relaunch);
      const density = now.density ?? physical.density;
      const seen = await look(state, ctx, density, baseline);
      const found = [
        ...seen.findings,
        ...(c.locale !== undefined && baseline !== null ? untranslated(baseline, seen.tree, c.locale) : []),
      ];
      baseline ??= seen.tree;
      const findings = found.map((f) => ({ n: ++n, ...f }));
      // The display as captured (its rotation applied).
      const display = {
        width: seen.tree.display?.right ?? physical.width,
        height: seen.tree.display?.bottom ?? physical.height,
        density,
      };
      const description = `${describeDisplay(physical, now, c.orientation)}${c.locale !== undefined ? `, locale ${c.locale}` : ''}`;
      configs.push({ name: c.name, description, display, findings, skipped: null });
      tiles.push({
        png: seen.png,
        caption: `${c.name}: ${description}${findings.length > 0 ? ` — ${findings.length} problem${findings.length === 1 ? '' : 's'}` : ''}`,
        marks: findings.filter((f) => f.bounds !== null).map((f) => ({ n: f.n, bounds: f.bounds! })),
      });
      ctx.progress({
        progress: configs.length,
        total: p.configs.length + 1,
        message: `${c.name}: ${findings.length} problems`,
      });
    }
  } finally {
    restored = await giveBack(state, before, ctx);
  }
  const sheet = unwrap(await screenshots().run({ op: 'sheet', tiles }, { signal: ctx.signal }));
  return { configs, sheet: sheet as Uint8Array<ArrayBuffer>, sheet_mime: 'image/jpeg', restored };
}
