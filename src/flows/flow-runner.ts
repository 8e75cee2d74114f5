/**
 * Runs a Maestro flow (maestro-flow.ts) on devices through droidbus's own actors: every command is
 * one or two bus requests to the device's actor (elements found as Maestro finds them by
 * `device.ui_select`, actions by `device.ui_input`, apps by `device.restart_app` / `launch_app` /
 * `stop_app`), so a flow's steps take the device's UI lane like an agent's, and many devices run at
 * once — one sequence per device, in parallel. A device's run stops at its first failing command
 * (an `optional` one is a warning instead) and reads the screen there: its rows and a screenshot.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import type { BusClient } from '../bus/client.js';
import type { deviceRunSchema } from '../bus/messages/flows.js';
import { BusError } from '../bus/errors.js';
import type { PackageScopeArg } from '../bus/messages/extras.js';
import type { InputAction, MaestroSelector } from '../bus/messages/ui.js';
import type { Flow, FlowCommand } from './maestro-flow.js';
import {
  LOOKUP_TIMEOUT_MS,
  OPTIONAL_LOOKUP_TIMEOUT_MS,
  type Direction,
  type FlowOp,
} from './maestro-commands.js';

export interface FlowRunOptions {
  bus: Pick<BusClient, 'request'>;
  flow: Flow;
  serials: readonly string[];
  /** Where screenshots go: a folder per device. */
  outDir: string;
  /** How long an element is looked for (Maestro's 17 s unless the run says otherwise). */
  lookupTimeoutMs?: number;
  /** The project's package scope, which launching and stopping an app are checked against. */
  scope: PackageScopeArg;
  signal?: AbortSignal;
  /** Called as each device starts a command. */
  onCommand?: (serial: string, command: FlowCommand) => void;
}

/** One device's run, as `flows.run` answers it. */
export type DeviceRun = z.infer<typeof deviceRunSchema>;
type FailureScreen = NonNullable<DeviceRun['screen']>;

class StepFailed extends Error {}

/** The longest wait one `device.ui_select` is asked for (its request allows 60 s). */
const SELECT_CHUNK_MS = 30_000;

function sel(selector: MaestroSelector): string {
  return Object.entries(selector)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(', ');
}

/** "x,y" in pixels or "x%,y%" of the display, as Maestro's point and swipe coordinates are written. */
function pointOn(spec: string, display: { width: number; height: number }): { x: number; y: number } {
  const [xs, ys] = spec.split(',').map((s) => s.trim()) as [string, string];
  const at = (v: string, size: number): number =>
    v.endsWith('%') ? Math.round((Number(v.slice(0, -1)) / 100) * size) : Math.round(Number(v));
  const clamp = (v: number, size: number): number => Math.max(0, Math.min(size - 1, v));
  return { x: clamp(at(xs, display.width), display.width), y: clamp(at(ys, display.height), display.height) };
}

/** Maestro's scrollUntilVisible swipes the finger against the direction the content goes. */
const SCROLL_SWIPES: Record<Direction, [string, string]> = {
  down: ['50%,50%', '50%,10%'],
  up: ['50%,50%', '50%,90%'],
  right: ['50%,50%', '10%,50%'],
  left: ['50%,50%', '90%,50%'],
};

class DeviceFlow {
  private display: { width: number; height: number } | null = null;
  readonly screenshots: string[] = [];

  constructor(
    private readonly o: FlowRunOptions,
    readonly serial: string,
  ) {}

  private ask: BusClient['request'] = (type, payload, options) =>
    this.o.bus.request(type, payload, { signal: this.o.signal, ...options });

  /** Whether this run has read the screen yet: its first lookup reads it afresh. */
  private looked = false;

  /** `fresh` for the next lookup: true for the run's first (the screen may have changed since). */
  private firstLook(): boolean {
    const fresh = !this.looked;
    this.looked = true;
    return fresh;
  }

  private lookup(command: FlowCommand): number {
    return command.optional ? OPTIONAL_LOOKUP_TIMEOUT_MS : (this.o.lookupTimeoutMs ?? LOOKUP_TIMEOUT_MS);
  }

  /**
   * Polls until `selector` selects an element (or, `gone`, none), up to `timeoutMs` — in requests of
   * at most SELECT_CHUNK_MS, so that a flow's long wait never meets one request's bound.
   */
  private async select(selector: MaestroSelector, gone: boolean, timeoutMs: number) {
    const end = Date.now() + timeoutMs;
    const started = Date.now();
    for (;;) {
      const r = await this.ask('device.ui_select', {
        serial: this.serial,
        selector,
        gone,
        timeout_ms: Math.max(0, Math.min(SELECT_CHUNK_MS, end - Date.now())),
        interval_ms: 250,
        fresh: this.firstLook(),
      });
      this.display = r.display;
      if (r.satisfied || Date.now() >= end) {
        return { ...r, elapsed_ms: Date.now() - started };
      }
    }
  }

  /** The element a selector selects, waiting up to `timeoutMs`; fails naming the selector. */
  private async find(selector: MaestroSelector, timeoutMs: number) {
    const r = await this.select(selector, false, timeoutMs);
    if (!r.satisfied || r.element === null) {
      throw new StepFailed(`no element matches ${sel(selector)} after ${r.elapsed_ms} ms`);
    }
    return r.element;
  }

  private async screenSize(): Promise<{ width: number; height: number }> {
    if (this.display === null) {
      const r = await this.ask('device.ui_select', {
        serial: this.serial,
        // Any one node: the answer's display is what is wanted.
        selector: { index: 0 },
        gone: false,
        timeout_ms: 0,
        interval_ms: 0,
        fresh: this.firstLook(),
      });
      this.display = r.display;
    }
    return this.display;
  }

  private input(input: InputAction) {
    return this.ask('device.ui_input', { serial: this.serial, input });
  }

  /** Waits up to `timeoutMs` for two equal captures (a screen that holds still); none when not asked. */
  private async settle(timeoutMs: number | undefined): Promise<void> {
    if (timeoutMs === undefined) {
      return;
    }
    await this.ask('device.ui_wait', {
      serial: this.serial,
      until: 'idle',
      gone: false,
      timeout_ms: timeoutMs,
      interval_ms: 250,
    });
  }

  async run(command: FlowCommand): Promise<void> {
    const op: FlowOp = command.op;
    const serial = this.serial;
    switch (op.op) {
      case 'launch':
        if (op.stopApp || op.clearState) {
          await this.ask('device.restart_app', {
            serial,
            package: op.appId,
            clear_data: op.clearState,
            scope: this.o.scope,
          });
        } else {
          await this.ask('device.launch_app', { serial, package: op.appId });
        }
        return;
      case 'stop':
        await this.ask('device.stop_app', { serial, package: op.appId, scope: this.o.scope });
        return;
      case 'tap': {
        const at =
          op.selector !== null
            ? (await this.find(op.selector, this.lookup(command))).center
            : pointOn(op.point!, await this.screenSize());
        const tapped = await this.input({ action: 'tap', x: at.x, y: at.y });
        await this.settle(op.settleMs);
        // Maestro taps once more when the first tap left the screen as it was (retryTapIfNoChange).
        if (op.retryIfNoChange && tapped.after?.changed === false) {
          await this.input({ action: 'tap', x: at.x, y: at.y });
          await this.settle(op.settleMs);
        }
        return;
      }
      case 'input':
        await this.input({ action: /^[\x20-\x7e]*$/.test(op.text) ? 'type' : 'type_unicode', text: op.text });
        return;
      case 'erase':
        await this.input({ action: 'erase', count: op.count });
        return;
      case 'assert': {
        const timeout = op.timeoutMs ?? this.lookup(command);
        if (op.visible) {
          await this.find(op.selector, timeout);
          return;
        }
        const r = await this.select(op.selector, true, timeout);
        if (!r.satisfied) {
          throw new StepFailed(`${sel(op.selector)} is still on screen after ${r.elapsed_ms} ms`);
        }
        return;
      }
      case 'scroll_until':
        await this.scrollUntil(op.selector, op.direction, op.timeoutMs);
        await this.settle(op.settleMs);
        return;
      case 'key':
        await this.input({ action: 'key', key: op.key });
        return;
      case 'hide_keyboard':
        await this.input({ action: 'hide_keyboard' });
        return;
      case 'settle':
        // Maestro waits for the screenshot to stop changing; droidbus for two equal captures.
        await this.settle(op.timeoutMs);
        return;
      case 'open_link':
        await this.ask('device.send_intent', {
          serial,
          mode: 'start',
          action: 'android.intent.action.VIEW',
          data_uri: op.link,
          extras: [],
        });
        return;
      case 'screenshot':
        this.screenshots.push(await this.saveScreenshot(op.name, 'png'));
        return;
      case 'swipe': {
        const display = await this.screenSize();
        const from = pointOn(op.start, display);
        const to = pointOn(op.end, display);
        await this.input({
          action: 'swipe',
          x1: from.x,
          y1: from.y,
          x2: to.x,
          y2: to.y,
          duration_ms: op.durationMs,
        });
        await this.settle(op.settleMs);
        return;
      }
      default: {
        const never: never = op;
        throw new Error(`unknown flow operation ${JSON.stringify(never)}`);
      }
    }
  }

  /** ScrollUntilVisibleCommand: look (briefly), swipe from the centre, until shown or the timeout. */
  private async scrollUntil(
    selector: MaestroSelector,
    direction: Direction,
    timeoutMs: number,
  ): Promise<void> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.ask('device.ui_select', {
        serial: this.serial,
        selector,
        gone: false,
        timeout_ms: 0,
        interval_ms: 0,
        fresh: this.firstLook(),
      });
      this.display = r.display;
      if (r.satisfied) {
        return;
      }
      if (Date.now() >= end) {
        throw new StepFailed(
          `no element matches ${sel(selector)} after scrolling ${direction} for ${timeoutMs} ms`,
        );
      }
      const [start, stop] = SCROLL_SWIPES[direction];
      const from = pointOn(start, r.display);
      const to = pointOn(stop, r.display);
      await this.input({ action: 'swipe', x1: from.x, y1: from.y, x2: to.x, y2: to.y, duration_ms: 400 });
    }
  }

  async saveScreenshot(name: string, format: 'png' | 'jpeg'): Promise<string> {
    const shot = await this.ask('device.screenshot', {
      serial: this.serial,
      annotate: false,
      ...(format === 'png' ? { full_size: true, format: 'png' as const } : { format: 'jpeg' as const }),
    });
    const dir = path.join(this.o.outDir, this.serial.replace(/[^\w.-]/g, '_'));
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `${name}.${format === 'png' ? 'png' : 'jpg'}`);
    await writeFile(file, shot.png);
    return file;
  }

  /** The screen as it is at a failure: rows and a screenshot; what cannot be read is left out. */
  async failureScreen(index: number): Promise<FailureScreen | null> {
    let screen: FailureScreen | null = null;
    try {
      const h = await this.o.bus.request('device.ui_hierarchy', {
        serial: this.serial,
        max_rows: 40,
        include_bars: false,
      });
      screen = {
        title: h.title,
        screen_hash: h.screen_hash,
        rows: h.rows.map((r) => {
          const name = r.text || r.content_desc || r.hint;
          const id = r.resource_id ? ` #${r.resource_id.split('/').pop()}` : '';
          return `${'  '.repeat(Math.min(r.level, 8))}${r.class.split('.').pop()}${id}${name ? ` "${name.slice(0, 80)}"` : ''}`;
        }),
        screenshot: null,
      };
      screen.screenshot = await this.saveScreenshot(`failed-at-${index}`, 'jpeg');
    } catch {
      // The device may be gone; the failure is reported without its screen.
    }
    return screen;
  }
}

function reasonOf(err: unknown): string {
  if (err instanceof StepFailed || err instanceof BusError) {
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

async function runOn(o: FlowRunOptions, serial: string): Promise<DeviceRun> {
  const started = Date.now();
  const device = new DeviceFlow(o, serial);
  const warnings: string[] = [];
  const stepMs: number[] = [];
  let ran = 0;
  for (const command of o.flow.commands) {
    if (o.signal?.aborted) {
      throw o.signal.reason instanceof Error ? o.signal.reason : new BusError('CANCELLED', 'cancelled');
    }
    o.onCommand?.(serial, command);
    const t0 = Date.now();
    try {
      await device.run(command);
      stepMs.push(Date.now() - t0);
    } catch (err) {
      stepMs.push(Date.now() - t0);
      if (err instanceof BusError && err.code === 'CANCELLED') {
        throw err;
      }
      if (command.optional) {
        warnings.push(`${command.index}. ${command.describe}: ${reasonOf(err)}`);
      } else {
        const failed = {
          index: command.index,
          command: command.describe,
          file: command.file,
          line: command.line,
          reason: reasonOf(err),
        };
        return {
          serial,
          passed: false,
          duration_ms: Date.now() - started,
          commands_run: ran,
          failed,
          warnings,
          screen: await device.failureScreen(command.index),
          screenshots: device.screenshots,
          step_ms: stepMs,
        };
      }
    }
    ran++;
  }
  return {
    serial,
    passed: true,
    duration_ms: Date.now() - started,
    commands_run: ran,
    failed: null,
    warnings,
    screen: null,
    screenshots: device.screenshots,
    step_ms: stepMs,
  };
}

/** Runs the flow on every device at once; answers per device, in the order given. */
export function runFlowOn(o: FlowRunOptions): Promise<DeviceRun[]> {
  return Promise.all(o.serials.map((serial) => runOn(o, serial)));
}
