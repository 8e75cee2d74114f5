/**
 * The Maestro commands droidbus runs, one module each (command.ts says what a module holds), and
 * Maestro's others, refused by name. The flow reader (maestro-flow.ts), the runner (flow-runner.ts)
 * and the exporter (maestro-export.ts) go through this list only: adding a command is adding its
 * module here. `runFlow` is the reader's own (it inlines the flow it names).
 */
import type { UiStep } from '../../bus/messages/ui.js';
import type { CommandModule, RunContext, StepKind, StepWriter, YamlCommand } from './command.js';
import { assertVisible } from './assert-visible.js';
import { eraseText } from './erase-text.js';
import { extendedWaitUntil } from './extended-wait-until.js';
import { hideKeyboard } from './hide-keyboard.js';
import { inputText } from './input-text.js';
import { launchApp } from './launch-app.js';
import { longPressOn } from './long-press-on.js';
import { openLink } from './open-link.js';
import { pressKey } from './press-key.js';
import { FlowError, isRaw, type ReadContext } from './read.js';
import { scrollUntilVisible } from './scroll-until-visible.js';
import { stopApp } from './stop-app.js';
import { swipe } from './swipe.js';
import { takeScreenshot } from './take-screenshot.js';
import { tapOn } from './tap-on.js';
import { waitForAnimationToEnd } from './wait-for-animation-to-end.js';

const COMMANDS = [
  launchApp,
  stopApp,
  openLink,
  tapOn,
  longPressOn,
  inputText,
  eraseText,
  pressKey,
  hideKeyboard,
  assertVisible,
  extendedWaitUntil,
  scrollUntilVisible,
  swipe,
  waitForAnimationToEnd,
  takeScreenshot,
] as const;

/** What droidbus does for one flow command: the operation its module read. */
export type FlowOp = ReturnType<(typeof COMMANDS)[number]['read']>;

/**
 * A module as the registry calls it. Each module's `run` takes the operation its own `read` made,
 * and the registry only ever hands it that one (by the command's name), so the union is narrowed here.
 */
type AnyModule = CommandModule<FlowOp, StepKind>;

const BY_NAME = new Map<string, AnyModule>(
  COMMANDS.flatMap((m) => m.names.map((name) => [name, m as unknown as AnyModule] as const)),
);

const BY_STEP = new Map<StepKind, AnyModule>(
  COMMANDS.flatMap((m) =>
    ((m as AnyModule).writes ?? []).map((kind) => [kind, m as unknown as AnyModule] as const),
  ),
);

/** The commands droidbus runs, by Maestro's names; its others are refused by name. */
export const SUPPORTED_COMMANDS: readonly string[] = [...BY_NAME.keys(), 'runFlow'];

/** Maestro's commands (YamlFluentCommand's fields, v1.39.10) droidbus does not run. */
export const MAESTRO_ONLY = new Set([
  'doubleTapOn',
  'assertTrue',
  'assertNoDefectsWithAI',
  'assertWithAI',
  'extractTextWithAI',
  'clearKeychain',
  'pasteText',
  'scroll',
  'inputRandomText',
  'inputRandomNumber',
  'inputRandomEmail',
  'inputRandomPersonName',
  'openBrowser',
  'action',
  'clearState',
  'setLocation',
  'repeat',
  'copyTextFrom',
  'runScript',
  'evalScript',
  'travel',
  'startRecording',
  'stopRecording',
  'addMedia',
  'setAirplaneMode',
  'toggleAirplaneMode',
  'retry',
]);

/** One command (its strings already substituted) as the operation droidbus runs. */
export function opOf(name: string, v: unknown, at: Omit<ReadContext, 'name'>): FlowOp {
  const m = BY_NAME.get(name);
  if (m === undefined) {
    throw new FlowError(`${at.where}: ${name} is not a command droidbus runs`);
  }
  return m.read(v, isRaw(v) ? v : null, { ...at, name });
}

/** Runs a command its module read, on one device. */
export function runOp(name: string, op: FlowOp, ctx: RunContext): Promise<void> {
  const m = BY_NAME.get(name);
  if (m === undefined) {
    throw new Error(`${name} has no module`);
  }
  return m.run(op, ctx);
}

/** The step kinds some command writes ('screen' is the exporter's closing assertion). */
export const WRITTEN_STEPS: readonly StepKind[] = [...BY_STEP.keys()];

/** A recorded step as the command that says it; null when nothing is written (a note may say why). */
export function writeStep(step: UiStep, w: StepWriter): YamlCommand | null {
  const m = BY_STEP.get(step.do);
  if (m?.write === undefined) {
    throw new Error(`no command writes a ${step.do} step`);
  }
  return m.write(step as never, w);
}
