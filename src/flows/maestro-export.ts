/**
 * A debug session's UI steps as a Maestro flow (issue 59): the config section (appId, name), then
 * one command per step, in the order the agent's calls succeeded — elements by the selector the
 * device actor chose for them on the screen it acted on (maestro-select.ts), points in percent of
 * the display only where no element was named, text typed into a password field as a `${NAME}`
 * variable (its value was never kept), and at the end an assertion of what the last screen showed.
 * Failed calls and the steps of other tools are left out; what Maestro cannot say is a comment.
 * The YAML follows maestro-orchestra's YamlFluentCommand (v1.39.10), as maestro-flow.ts reads it.
 */
import { stringify } from 'yaml';
import type { MaestroSelector, UiStep } from '../bus/messages/ui.js';
import type { SessionFile, TimelineEvent } from '../store/formats/debug-session.js';
import type { StepWriter, YamlCommand } from './commands/command.js';
import { writeStep } from './commands/index.js';

export interface ExportedFlow {
  yaml: string;
  /** Commands written (the final assertion included). */
  commands: number;
  /** The variables the flow needs (password fields), with the field each was typed into. */
  variables: { name: string; field: string | null }[];
  /** Agent actions that gave no command (a tool with no UI step, a failed call), as "seq tool". */
  left_out: string[];
  /** Steps Maestro cannot say, kept as comments. */
  comments: string[];
}

/**
 * A variable's name for a field: PASSWORD for `password`, CONFIRM_PASSWORD for `confirmPassword`.
 */
function variableName(field: string | null, taken: Set<string>): string {
  const base =
    (field ?? 'secret')
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toUpperCase()
      .replace(/^(\d)/, '_$1') || 'SECRET';
  let name = base;
  for (let i = 2; taken.has(name); i++) {
    name = `${base}_${i}`;
  }
  return name;
}

class FlowWriter implements StepWriter {
  readonly commands: YamlCommand[] = [];
  readonly comments: string[] = [];
  readonly variables: { name: string; field: string | null }[] = [];
  private readonly byField = new Map<string, string>();
  lastScreen: MaestroSelector | null = null;
  /** The package the last screen's element belongs to ('' when not known). */
  lastScreenPackage = '';
  /** The app's own last screen seen (to assert it is gone when another app ended in front). */
  lastOwnScreen: MaestroSelector | null = null;

  constructor(readonly appId: string) {}

  note(text: string): void {
    this.comments.push(text);
    // A comment in the list keeps its place: Maestro skips it.
    this.commands.push(`# ${text}`);
  }

  secret(field: string | null): string {
    const known = field !== null ? this.byField.get(field) : undefined;
    if (known !== undefined) {
      return known;
    }
    const name = variableName(field, new Set(this.variables.map((v) => v.name)));
    this.variables.push({ name, field });
    if (field !== null) {
      this.byField.set(field, name);
    }
    return name;
  }

  add(step: UiStep): void {
    if (step.do === 'screen') {
      this.lastScreen = step.selector;
      this.lastScreenPackage = step.package ?? '';
      if (step.package === undefined || step.package === this.appId) {
        this.lastOwnScreen = step.selector;
      }
      return;
    }
    // A wait or an assertion reads the screen the last action left; anything else changes it.
    if (step.do !== 'wait' && step.do !== 'assert') {
      this.lastScreen = null;
    }
    const written = writeStep(step, this);
    if (written !== null) {
      this.commands.push(written);
    }
  }
}

function stepsOf(e: TimelineEvent): UiStep[] {
  return e.kind === 'agent_action' && e.action?.success === true ? (e.action.steps ?? []) : [];
}

/** Writes the session's UI steps as a Maestro flow. */
export function exportSession(session: SessionFile): ExportedFlow {
  const writer = new FlowWriter(session.package);
  const leftOut: string[] = [];
  for (const e of session.events) {
    if (e.kind !== 'agent_action') {
      continue;
    }
    const steps = stepsOf(e);
    if (steps.length === 0) {
      leftOut.push(`${e.seq} ${e.action?.tool ?? 'action'}${e.action?.success === false ? ' (failed)' : ''}`);
      continue;
    }
    for (const step of steps) {
      writer.add(step);
    }
  }
  // The last screen the agent saw, asserted when it is the app's own; when another app ended in front
  // (the launcher after a crash), that the app's last screen is gone — never another app's label.
  const last = writer.lastScreen;
  const ownLast = writer.lastScreenPackage === '' || writer.lastScreenPackage === session.package;
  if (last !== null && ownLast) {
    writer.add({ do: 'assert', selector: last, visible: true });
  } else if (last !== null && writer.lastOwnScreen !== null) {
    writer.add({ do: 'assert', selector: writer.lastOwnScreen, visible: false });
  }
  const header = [
    `# Exported by droidbus from debug session ${session.id} (${session.package} on ${session.device_model ?? session.device}, opened ${session.opened_at}).`,
    ...(writer.variables.length > 0
      ? [
          `# Text typed into password fields is not kept: give it when running, e.g.`,
          `#   maestro test ${writer.variables.map((v) => `-e ${v.name}=…`).join(' ')} flow.yaml`,
        ]
      : []),
  ];
  const config = stringify({ appId: session.package, name: `debug session ${session.id}` });
  const body = writer.commands
    .map((c) => (typeof c === 'string' && c.startsWith('# ') ? c : stringify([c]).trimEnd()))
    .join('\n');
  return {
    yaml: `${header.join('\n')}\n${config}---\n${body}\n`,
    commands: writer.commands.filter((c) => !(typeof c === 'string' && c.startsWith('# '))).length,
    variables: writer.variables,
    left_out: leftOut,
    comments: writer.comments,
  };
}
