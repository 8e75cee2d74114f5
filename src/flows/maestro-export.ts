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
import { maestroKeyOf } from './maestro-keys.js';

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

type Command = string | Record<string, unknown>;

/** A selector as YAML: the short form (a text) when it is a text alone. */
function selectorYaml(s: MaestroSelector): string | Record<string, unknown> {
  const keys = Object.keys(s);
  return keys.length === 1 && s.text !== undefined ? s.text : { ...s };
}

/**
 * Text as Maestro types it literally: `${` starts a script in every Maestro string
 * (Env.evaluateScripts), and a backslash before it keeps it text — an app's or an agent's `${…}`
 * never runs as JavaScript when the flow does.
 */
function verbatim(text: string): string {
  return text.replace(/\$\{/g, '\\${');
}

function percent(v: number, size: number): string {
  return `${Math.round((v / size) * 100)}%`;
}

/** A variable's name for a field: PASSWORD for `password`, CONFIRM_PASSWORD for `confirmPassword`. */
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

class FlowWriter {
  readonly commands: Command[] = [];
  readonly comments: string[] = [];
  readonly variables: { name: string; field: string | null }[] = [];
  private readonly byField = new Map<string, string>();
  lastScreen: MaestroSelector | null = null;
  /** The package the last screen's element belongs to ('' when not known). */
  lastScreenPackage = '';
  /** The app's own last screen seen (to assert it is gone when another app ended in front). */
  lastOwnScreen: MaestroSelector | null = null;

  constructor(private readonly appId: string) {}

  private note(text: string): void {
    this.comments.push(text);
    // A comment in the list keeps its place: Maestro skips it.
    this.commands.push(`# ${text}`);
  }

  private secret(field: string | null): string {
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
    // A wait or an assertion reads the screen the last action left; anything else changes it.
    if (step.do !== 'screen' && step.do !== 'wait' && step.do !== 'assert') {
      this.lastScreen = null;
    }
    switch (step.do) {
      case 'launch': {
        const own = step.package === this.appId;
        this.commands.push(
          own && !step.clear_state
            ? 'launchApp'
            : {
                launchApp: {
                  ...(own ? {} : { appId: step.package }),
                  ...(step.clear_state ? { clearState: true } : {}),
                },
              },
        );
        return;
      }
      case 'stop':
        this.commands.push(step.package === this.appId ? 'stopApp' : { stopApp: step.package });
        return;
      case 'tap':
        if (step.selector !== null) {
          this.commands.push({ tapOn: selectorYaml(step.selector) });
        } else if (step.point !== null && step.screen !== null) {
          this.commands.push({
            tapOn: {
              point: `${percent(step.point.x, step.screen.width)},${percent(step.point.y, step.screen.height)}`,
            },
          });
        } else if (step.point !== null) {
          this.commands.push({ tapOn: { point: `${step.point.x},${step.point.y}` } });
        }
        return;
      case 'type':
        this.commands.push({
          inputText:
            step.secret || step.text === null ? `\${${this.secret(step.field)}}` : verbatim(step.text),
        });
        return;
      case 'erase':
        this.commands.push(step.characters === null ? 'eraseText' : { eraseText: step.characters });
        return;
      case 'key': {
        if (step.key === 'KEYCODE_BACK') {
          this.commands.push('back');
          return;
        }
        const name = maestroKeyOf(step.key);
        if (name === null) {
          this.note(`pressed ${step.key}, a key Maestro cannot press`);
        } else {
          this.commands.push({ pressKey: name });
        }
        return;
      }
      case 'hide_keyboard':
        this.commands.push('hideKeyboard');
        return;
      case 'swipe': {
        const at = (p: { x: number; y: number }) =>
          step.screen === null
            ? `${p.x},${p.y}`
            : `${percent(p.x, step.screen.width)},${percent(p.y, step.screen.height)}`;
        this.commands.push({ swipe: { start: at(step.from), end: at(step.to), duration: step.duration_ms } });
        return;
      }
      case 'scroll_until':
        this.commands.push({
          scrollUntilVisible: { element: { ...step.selector }, direction: step.direction.toUpperCase() },
        });
        return;
      case 'wait':
        this.commands.push({
          extendedWaitUntil: { visible: selectorYaml(step.selector), timeout: step.timeout_ms },
        });
        return;
      case 'assert':
        this.commands.push({
          [step.visible ? 'assertVisible' : 'assertNotVisible']: selectorYaml(step.selector),
        });
        return;
      case 'open_link':
        this.commands.push({ openLink: verbatim(step.url) });
        return;
      case 'screen':
        this.lastScreen = step.selector;
        this.lastScreenPackage = step.package ?? '';
        if (step.package === undefined || step.package === this.appId) {
          this.lastOwnScreen = step.selector;
        }
        return;
      default: {
        const never: never = step;
        throw new Error(`unknown step ${JSON.stringify(never)}`);
      }
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
    writer.commands.push({ assertVisible: selectorYaml(last) });
  } else if (last !== null && writer.lastOwnScreen !== null) {
    writer.commands.push({ assertNotVisible: selectorYaml(writer.lastOwnScreen) });
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
