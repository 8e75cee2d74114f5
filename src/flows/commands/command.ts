/**
 * One Maestro command, whole, as Maestro's orchestra keeps one class per command: how it is read
 * from a flow's YAML (its fields, defaults, clamping, errors with file and line), how it runs on a
 * device through the bus, and how an agent's recorded step (store/formats/ui-step.ts) is written as
 * it when a session is exported. The reader, the runner and the exporter all go through these
 * modules (commands/index.ts lists them), so a new command is one module and its test.
 */
import type { UiStep } from '../../bus/messages/ui.js';
import type { FlowDevice } from '../flow-device.js';
import type { Raw, ReadContext } from './read.js';

/** A command as the exported YAML holds it: a bare name or a one-key map. */
export type YamlCommand = string | Record<string, unknown>;

/** What a command's run is given besides its operation. */
export interface RunContext {
  device: FlowDevice;
  /** How long this command looks for an element: 17 s, 7 s when optional, or the run's own. */
  lookupMs: number;
}

/** What writing a step may need from the flow being written. */
export interface StepWriter {
  /** The flow's app. */
  readonly appId: string;
  /** The `${NAME}` variable standing for text typed into a password field (one per field). */
  secret(field: string | null): string;
  /** A step Maestro cannot say, kept in the flow as a comment. */
  note(text: string): void;
}

export type StepKind = UiStep['do'];

export interface CommandModule<O extends { op: string } = { op: string }, S extends StepKind = never> {
  /** The Maestro names it reads (killApp is stopApp's other name). */
  readonly names: readonly string[];
  /** Its value, short form `v` or long form `map`, as the operation droidbus runs. */
  read(v: unknown, map: Raw | null, at: ReadContext): O;
  /** Runs the operation on one device; throws StepFailed when the device does not do it. */
  run(op: O, ctx: RunContext): Promise<void>;
  /** The recorded steps this command writes (an agent's actions), if any. */
  readonly writes?: readonly S[];
  /** One step as this command; null when nothing is written (a note may say why). */
  write?(step: Extract<UiStep, { do: S }>, w: StepWriter): YamlCommand | null;
}

/** A module, its types checked where it is written and kept whole in the registry. */
export function command<O extends { op: string }, S extends StepKind = never>(
  m: CommandModule<O, S>,
): CommandModule<O, S> {
  return m;
}

/** A selector as YAML: the short form (a text) when it is a text alone. */
export function selectorYaml(s: Record<string, unknown>): string | Record<string, unknown> {
  const keys = Object.keys(s);
  return keys.length === 1 && typeof s['text'] === 'string' ? s['text'] : { ...s };
}

/**
 * Text as Maestro types it literally: `${` starts a script in every Maestro string
 * (Env.evaluateScripts), and a backslash before it keeps it text — an app's or an agent's `${…}`
 * never runs as JavaScript when the flow does.
 */
export function verbatim(text: string): string {
  return text.replace(/\$\{/g, '\\${');
}

/** A coordinate in percent of the display (a point then fits other sizes). */
export function percent(v: number, size: number): string {
  return `${Math.round((v / size) * 100)}%`;
}
