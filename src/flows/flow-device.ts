/**
 * One device as a flow's commands act on it: through droidbus's own actors only (elements found as
 * Maestro finds them by `device.ui_select`, actions by `device.ui_input`, apps by the app requests),
 * so a flow's steps take the device's UI lane like an agent's. Each command's module
 * (commands/*.ts) says what it does with these; the runner (flow-runner.ts) walks the flow.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import type { BusClient } from '../bus/client.js';
import type { PackageScopeArg } from '../bus/messages/extras.js';
import type { deviceRunSchema } from '../bus/messages/flows.js';
import type { InputAction, MaestroSelector } from '../bus/messages/ui.js';

/** A command that did not do what the flow says (its reason is the run's failure). */
export class StepFailed extends Error {}

type FailureScreen = NonNullable<z.infer<typeof deviceRunSchema>['screen']>;

/** What the device's commands need from the run. */
export interface FlowDeviceOptions {
  bus: Pick<BusClient, 'request'>;
  /** Where screenshots go: a folder per device. */
  outDir: string;
  /** The project's package scope, which launching and stopping an app are checked against. */
  scope: PackageScopeArg;
  signal?: AbortSignal;
}

/** The longest wait one `device.ui_select` is asked for (its request allows 60 s). */
const SELECT_CHUNK_MS = 30_000;

/** A selector in a failure's words: `text: "Save", index: 1`. */
export function describeSelector(selector: MaestroSelector): string {
  return Object.entries(selector)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(', ');
}

/** "x,y" in pixels or "x%,y%" of the display, as Maestro's point and swipe coordinates are written. */
export function pointOn(spec: string, display: { width: number; height: number }): { x: number; y: number } {
  const [xs, ys] = spec.split(',').map((s) => s.trim()) as [string, string];
  const at = (v: string, size: number): number =>
    v.endsWith('%') ? Math.round((Number(v.slice(0, -1)) / 100) * size) : Math.round(Number(v));
  const clamp = (v: number, size: number): number => Math.max(0, Math.min(size - 1, v));
  return { x: clamp(at(xs, display.width), display.width), y: clamp(at(ys, display.height), display.height) };
}

export class FlowDevice {
  private display: { width: number; height: number } | null = null;
  readonly screenshots: string[] = [];
  /** Whether this run has read the screen yet: its first lookup reads it afresh. */
  private looked = false;

  constructor(
    private readonly o: FlowDeviceOptions,
    readonly serial: string,
  ) {}

  /** The project's package scope (launchApp, stopApp). */
  get scope(): PackageScopeArg {
    return this.o.scope;
  }

  /** A bus request on this run's signal. */
  ask: BusClient['request'] = (type, payload, options) =>
    this.o.bus.request(type, payload, { signal: this.o.signal, ...options });

  /** `fresh` for the next lookup: true for the run's first (the screen may have changed since). */
  private firstLook(): boolean {
    const fresh = !this.looked;
    this.looked = true;
    return fresh;
  }

  /**
   * Polls until `selector` selects an element (or, `gone`, none), up to `timeoutMs` (0: one look) —
   * in requests of at most SELECT_CHUNK_MS, so that a flow's long wait never meets one request's bound.
   */
  async select(selector: MaestroSelector, gone: boolean, timeoutMs: number) {
    const end = Date.now() + timeoutMs;
    const started = Date.now();
    for (;;) {
      const r = await this.ask('device.ui_select', {
        serial: this.serial,
        selector,
        gone,
        timeout_ms: Math.max(0, Math.min(SELECT_CHUNK_MS, end - Date.now())),
        interval_ms: timeoutMs === 0 ? 0 : 250,
        fresh: this.firstLook(),
      });
      this.display = r.display;
      if (r.satisfied || Date.now() >= end) {
        return { ...r, elapsed_ms: Date.now() - started };
      }
    }
  }

  /** The element a selector selects, waiting up to `timeoutMs`; fails naming the selector. */
  async find(selector: MaestroSelector, timeoutMs: number) {
    const r = await this.select(selector, false, timeoutMs);
    if (!r.satisfied || r.element === null) {
      throw new StepFailed(`no element matches ${describeSelector(selector)} after ${r.elapsed_ms} ms`);
    }
    return r.element;
  }

  /** The display's size in pixels, as the last lookup read it (one look when there was none). */
  async screenSize(): Promise<{ width: number; height: number }> {
    if (this.display === null) {
      // Any one node: the answer's display is what is wanted.
      await this.select({ index: 0 }, false, 0);
    }
    return this.display!;
  }

  /** "x,y" or "x%,y%" as a point on this display. */
  async point(spec: string): Promise<{ x: number; y: number }> {
    return pointOn(spec, await this.screenSize());
  }

  input(input: InputAction) {
    return this.ask('device.ui_input', { serial: this.serial, input });
  }

  /** Waits up to `timeoutMs` for two equal captures (a screen that holds still); none when not asked. */
  async settle(timeoutMs: number | undefined): Promise<void> {
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
    if (format === 'png') {
      this.screenshots.push(file);
    }
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
