import { BusError } from '../../../bus/errors.js';
import type { UiHelper } from './ui-helper-reader.js';
import { keyCodeOf } from './android-keycodes.js';
import { READS, readCommand } from '../../../device/reads.js';
import type { InputAction, UiStep } from '../../../bus/messages/ui.js';
import { shArgv } from '../../../adb/shell-command.js';
import type { Device } from '../../../device/device.js';
import type { Capture } from './ui-capture.js';
import { detectOverlays } from './ui-overlays.js';
import { parseImeShown } from '../../../device/parsers/ime-state.js';
import { focusedNode, nodeAt, toElement } from './ui-query.js';
import { tapStep, typeStep } from './ui-steps.js';
import { filledLine, resolveField, resolveSubmit } from './ui-form.js';
import type { UiElement } from './ui-query.js';
import {
  clearTextBroadcastArgs,
  deleteTextArgs,
  keyeventArgs,
  swipeArgs,
  tapArgs,
  typeTextArgs,
  unicodeTextArgs,
} from './ui-input.js';
import type { Argv } from './ui-input.js';
import type { UiNode, UiResult } from '../../../device/ui-dump/ui-types.js';

/** Every `adb shell input` command may take this long (the reference's 30 s). */
const INPUT_TIMEOUT_MS = 30_000;
const ADB_KEYBOARD = 'com.android.adbkeyboard';

export interface InputOutcome {
  done: string;
  element: UiElement | null;
  commands: Argv[];
  /** What was done in Maestro's terms (ui-step.ts); a tap or swipe without a capture has no screen yet. */
  steps: UiStep[];
}

/** What an action needs besides the device: a fresh capture, made on demand. */
export interface ActionContext {
  device: Device;
  /** The device's helper: inputs go through it when it already serves the device. */
  helper: UiHelper;
  signal: AbortSignal;
  capture(): Promise<Capture>;
}

function unwrap<T>(result: UiResult<T>): T {
  if (!result.ok) {
    throw new BusError('INVALID', result.error.message);
  }
  return result.value;
}

async function run(ctx: ActionContext, argv: Argv, ran: Argv[]): Promise<string> {
  const result = await ctx.device.shell(shArgv(argv), { signal: ctx.signal, timeoutMs: INPUT_TIMEOUT_MS });
  ran.push(argv);
  if (result.exitCode !== null && result.exitCode !== 0) {
    throw new BusError(
      'FAILED',
      `\`${argv.join(' ')}\` failed on ${ctx.device.serial} (exit ${result.exitCode}): ${(result.stderr || result.stdout).trim().slice(0, 400)}`,
    );
  }
  return result.stdout;
}

/** A tap: through the on-device helper when it already serves this device, else `input tap`. */
async function tapAt(ctx: ActionContext, x: number, y: number, ran: Argv[]): Promise<void> {
  const args = unwrap(tapArgs(x, y));
  if (await ctx.helper.tap(x, y, ctx.signal)) {
    ran.push(['ui-helper', 'tap', String(x), String(y)]);
    return;
  }
  await run(ctx, args, ran);
}

/** A key press: through the helper when it serves this device, else `input keyevent`. */
async function pressKey(ctx: ActionContext, key: string, ran: Argv[]): Promise<string> {
  const argv = unwrap(keyeventArgs(key));
  const name = argv[2] as string;
  const code = /^\d+$/.test(name) ? Number(name) : keyCodeOf(name.slice('KEYCODE_'.length));
  if (code !== undefined && (await ctx.helper.key(code, ctx.signal))) {
    ran.push(['ui-helper', 'press_keycode', String(code)]);
    return name;
  }
  await run(ctx, argv, ran);
  return name;
}

/** A swipe: through the helper when it serves this device, else `input swipe`. */
async function swipeAlong(
  ctx: ActionContext,
  input: { x1: number; y1: number; x2: number; y2: number; duration_ms: number },
  ran: Argv[],
): Promise<void> {
  const argv = unwrap(swipeArgs(input.x1, input.y1, input.x2, input.y2, input.duration_ms));
  const from = { x: input.x1, y: input.y1 };
  const to = { x: input.x2, y: input.y2 };
  if (await ctx.helper.swipe(from, to, input.duration_ms, ctx.signal)) {
    ran.push(['ui-helper', 'swipe', ...argv.slice(2)]);
    return;
  }
  await run(ctx, argv, ran);
}

/**
 * Refuses to act when the screen is not the one the agent read (`expect_screen_hash`): a tool error
 * with its own code, `screen_changed`, and the screen's hash now, so an agent tells it from a failure.
 */
export function refuseChangedScreen(current: Capture, expected: string | undefined): void {
  if (expected !== undefined && current.hash !== expected) {
    throw new BusError(
      'FAILED',
      `the screen changed since it was read (expected screen_hash ${expected}, it is now ${current.hash}); nothing was done. Read the screen again and act on what it shows now.`,
      undefined,
      { reason: 'screen_changed', screen_hash: current.hash },
    );
  }
}

/** The node at a tree path on a fresh capture, or a tool error that says what to do. */
function resolveNode(capture: Capture, treePath: string): UiNode {
  const node = nodeAt(capture.tree, treePath);
  if (!node) {
    throw new BusError(
      'NOT_FOUND',
      `no element at tree_path ${treePath} on the current screen (screen_hash ${capture.hash}); tree paths name positions on the screen as it is now — read it again with get_ui_hierarchy or find_ui_elements`,
    );
  }
  return node;
}

/** Whether the system shows the soft keyboard (`mInputShown`), or null when its dump does not say. */
async function imeShown(ctx: ActionContext): Promise<boolean | null> {
  const out = await ctx.device.shell(readCommand(READS.imeState), {
    signal: ctx.signal,
    timeoutMs: INPUT_TIMEOUT_MS,
  });
  return parseImeShown(out.stdout);
}

async function adbKeyboardIsActive(ctx: ActionContext): Promise<boolean> {
  const out = await ctx.device.shell(readCommand(READS.inputMethod), {
    signal: ctx.signal,
    timeoutMs: INPUT_TIMEOUT_MS,
  });
  return out.stdout.includes(ADB_KEYBOARD);
}

async function typeText(ctx: ActionContext, text: string, ran: Argv[]): Promise<void> {
  if (text === '') {
    return;
  }
  const ascii = typeTextArgs(text);
  if (ascii.ok) {
    for (const argv of ascii.value) {
      await run(ctx, argv, ran);
    }
    return;
  }
  if (/[^\x20-\x7e]/.test(text) && !/[\x00-\x1f\x7f]/.test(text)) {
    await typeUnicode(ctx, text, ran);
    return;
  }
  throw new BusError('INVALID', ascii.error.message);
}

/**
 * Non-ASCII text, which `input text` cannot type: ADBKeyBoard's broadcast when it is the keyboard,
 * else the helper's set-text (its `/keys` handler presses Enter after a text ending in `\\n`, so
 * such a text is not sent that way).
 */
async function typeUnicode(ctx: ActionContext, text: string, ran: Argv[]): Promise<void> {
  const argv = unwrap(unicodeTextArgs(text));
  const keyboard = await adbKeyboardIsActive(ctx);
  if (!keyboard && !text.endsWith('\\n') && (await ctx.helper.type(text, ctx.signal))) {
    ran.push(['ui-helper', 'keys', `${[...text].length} characters`]);
    return;
  }
  if (!keyboard) {
    throw new BusError(
      'FAILED',
      `typing non-ASCII text needs the ADBKeyBoard input method on ${ctx.device.serial}, and it is not the active keyboard, nor does the on-device helper serve this device. Ask the user to install one: the helper (droidbus helper install), or ADBKeyBoard (github.com/senzhk/ADBKeyBoard) with: adb shell ime enable com.android.adbkeyboard/.AdbIME && adb shell ime set com.android.adbkeyboard/.AdbIME — or type ASCII text with ui_type_text.`,
    );
  }
  await run(ctx, argv, ran);
}

async function clearFocused(ctx: ActionContext, node: UiNode | null, ran: Argv[]): Promise<void> {
  if (await adbKeyboardIsActive(ctx)) {
    await run(ctx, clearTextBroadcastArgs(), ran);
    return;
  }
  const length = Math.min(1000, Math.max(1, [...(node?.text ?? '')].length));
  for (const argv of unwrap(deleteTextArgs(length))) {
    await run(ctx, argv, ran);
  }
}

/** A masked field's text stays out of the commands an answer lists (and the activity log keeps). */
function hideTyped(ran: Argv[], from: number, text: string): void {
  for (let i = from; i < ran.length; i++) {
    ran[i] = [...(ran[i] ?? []).slice(0, 2), `(${[...text].length} characters, hidden)`];
  }
}

/** A form: every target resolved and checked on the one capture before anything is typed. */
async function fillForm(
  ctx: ActionContext,
  cap: Capture,
  input: Extract<InputAction, { action: 'fill' }>,
  ran: Argv[],
): Promise<InputOutcome> {
  const fields = input.fields.map((f) => ({ node: resolveField(cap, f.field), text: f.text }));
  const submit = input.submit === null ? null : resolveSubmit(cap, input.submit);
  const steps: UiStep[] = [];
  for (const { node, text } of fields) {
    await run(ctx, unwrap(tapArgs(node.center.x, node.center.y)), ran);
    steps.push(tapStep(cap.tree, node));
    if (input.clear_before && node.text !== '') {
      await clearFocused(ctx, node, ran);
      steps.push({ do: 'erase', characters: null });
    }
    steps.push(typeStep(cap.tree, node, text));
    const typedFrom = ran.length;
    await typeText(ctx, text, ran);
    if (node.password) {
      hideTyped(ran, typedFrom, text);
    }
  }
  const filled = fields.map((f) => filledLine(cap.tree, f.node, f.text));
  if (submit !== null) {
    await tapAt(ctx, submit.center.x, submit.center.y, ran);
    steps.push(tapStep(cap.tree, submit));
  }
  const tapped = submit && toElement(cap.tree, submit);
  return {
    done: `Filled ${filled.join(', ')}${tapped ? `; then tapped ${tapped.label ? `"${tapped.label}"` : tapped.class} (${submit.center.x}, ${submit.center.y})` : ''}.`,
    element: tapped ?? (fields.length === 1 ? toElement(cap.tree, fields[0]!.node) : null),
    commands: ran,
    steps,
  };
}

/** Hides the keyboard by BACK, only when the system says it shows (else the capture's overlays). */
async function hideKeyboard(
  ctx: ActionContext,
  fresh: () => Promise<Capture>,
  ran: Argv[],
): Promise<InputOutcome> {
  const steps: UiStep[] = [{ do: 'hide_keyboard' }];
  // The system's IME state, not the capture: a dump never holds the keyboard's window.
  const shown = (await imeShown(ctx)) ?? detectOverlays((await fresh()).tree).keyboard !== null;
  if (!shown) {
    return { done: 'The soft keyboard is not showing; nothing to do.', element: null, commands: ran, steps };
  }
  await pressKey(ctx, 'BACK', ran);
  return {
    done:
      (await imeShown(ctx)) === true
        ? 'Pressed BACK, but the soft keyboard still shows (dumpsys input_method).'
        : 'Hid the soft keyboard.',
    element: null,
    commands: ran,
    steps,
  };
}

/**
 * Performs one input action. Element actions resolve their tree path against a fresh capture
 * and refuse a missing or disabled node (fill also one that is not editable); with
 * `expectHash`, any action refuses to run on a screen that changed since it was read.
 */
export async function performInput(
  ctx: ActionContext,
  input: InputAction,
  expectHash: string | undefined,
): Promise<InputOutcome> {
  const ran: Argv[] = [];
  let capture: Capture | null = null;
  const fresh = async (): Promise<Capture> => (capture ??= await ctx.capture());
  if (expectHash !== undefined) {
    refuseChangedScreen(await fresh(), expectHash);
  }
  switch (input.action) {
    case 'tap':
      await tapAt(ctx, input.x, input.y, ran);
      return {
        done: `Tapped (${input.x}, ${input.y}).`,
        element: null,
        commands: ran,
        steps: [{ do: 'tap', selector: null, point: { x: input.x, y: input.y }, screen: null }],
      };
    case 'tap_element': {
      const cap = await fresh();
      const node = resolveNode(cap, input.tree_path);
      if (!node.enabled) {
        throw new BusError(
          'FAILED',
          `the element at ${input.tree_path} (${toElement(cap.tree, node).label || node.class}) is disabled; nothing was tapped`,
        );
      }
      await tapAt(ctx, node.center.x, node.center.y, ran);
      const element = toElement(cap.tree, node);
      return {
        done: `Tapped ${element.label ? `"${element.label}"` : element.class} at its centre (${node.center.x}, ${node.center.y}).`,
        element,
        commands: ran,
        steps: [tapStep(cap.tree, node)],
      };
    }
    case 'fill':
      return fillForm(ctx, await fresh(), input, ran);
    case 'type':
      await typeText(ctx, input.text, ran);
      return {
        done: `Typed ${[...input.text].length} characters into the focused field.`,
        element: null,
        commands: ran,
        // Whether the field is a password's is read on the screen after (device-actor.ts).
        steps: [typeStep(null, null, input.text)],
      };
    case 'type_unicode':
      await typeUnicode(ctx, input.text, ran);
      return {
        done: `Typed ${[...input.text].length} characters (Unicode) into the focused field.`,
        element: null,
        commands: ran,
        steps: [typeStep(null, null, input.text)],
      };
    case 'clear_input': {
      const cap = await fresh();
      const node = focusedNode(cap.tree);
      if (!node) {
        throw new BusError(
          'FAILED',
          'no input field has focus; tap the field first (ui_tap_element), then clear it',
        );
      }
      await clearFocused(ctx, node, ran);
      return {
        done: 'Cleared the focused field.',
        element: toElement(cap.tree, node),
        commands: ran,
        steps: [{ do: 'erase', characters: null }],
      };
    }
    case 'erase': {
      for (const argv of unwrap(deleteTextArgs(input.count))) {
        await run(ctx, argv, ran);
      }
      return {
        done: `Deleted up to ${input.count} characters at the end of the focused field.`,
        element: null,
        commands: ran,
        steps: [{ do: 'erase', characters: input.count }],
      };
    }
    case 'hide_keyboard':
      return hideKeyboard(ctx, fresh, ran);
    case 'key': {
      const key = await pressKey(ctx, input.key, ran);
      return { done: `Sent ${key}.`, element: null, commands: ran, steps: [{ do: 'key', key }] };
    }
    case 'swipe':
      await swipeAlong(ctx, input, ran);
      return {
        done: `Swiped (${input.x1}, ${input.y1}) → (${input.x2}, ${input.y2}) in ${input.duration_ms} ms.`,
        element: null,
        commands: ran,
        steps: [
          {
            do: 'swipe',
            from: { x: input.x1, y: input.y1 },
            to: { x: input.x2, y: input.y2 },
            screen: null,
            duration_ms: input.duration_ms,
          },
        ],
      };
    default: {
      const never: never = input;
      throw new BusError('INVALID', `unknown input action ${JSON.stringify(never)}`);
    }
  }
}
