/**
 * Runs a Maestro flow (maestro-flow.ts) on devices through droidbus's own actors: every command is
 * run by its own module (commands/*.ts) on the device as flow-device.ts reaches it — bus requests to
 * the device's actor — so a flow's steps take the device's UI lane like an agent's, and many devices
 * run at once — one sequence per device, in parallel. A device's run stops at its first failing command
 * (an `optional` one is a warning instead) and reads the screen there: its rows and a screenshot.
 */
import type { z } from 'zod';
import type { deviceRunSchema } from '../bus/messages/flows.js';
import { BusError } from '../bus/errors.js';
import type { Flow, FlowCommand } from './maestro-flow.js';
import { runOp } from './commands/index.js';
import { LOOKUP_TIMEOUT_MS, OPTIONAL_LOOKUP_TIMEOUT_MS } from './commands/read.js';
import { FlowDevice, StepFailed, type FlowDeviceOptions } from './flow-device.js';

export interface FlowRunOptions extends FlowDeviceOptions {
  flow: Flow;
  serials: readonly string[];
  /** How long an element is looked for (Maestro's 17 s unless the run says otherwise). */
  lookupTimeoutMs?: number;
  /** Called as each device starts a command. */
  onCommand?: (serial: string, command: FlowCommand) => void;
}

/** One device's run, as `flows.run` answers it. */
export type DeviceRun = z.infer<typeof deviceRunSchema>;

function reasonOf(err: unknown): string {
  if (err instanceof StepFailed || err instanceof BusError) {
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

async function runOn(o: FlowRunOptions, serial: string): Promise<DeviceRun> {
  const started = Date.now();
  const device = new FlowDevice(o, serial);
  const lookupMs = (c: FlowCommand): number =>
    c.optional ? OPTIONAL_LOOKUP_TIMEOUT_MS : (o.lookupTimeoutMs ?? LOOKUP_TIMEOUT_MS);
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
      await runOp(command.name, command.op, { device, lookupMs: lookupMs(command) });
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
