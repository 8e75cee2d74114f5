import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { UiStep } from '../bus/messages/ui.js';
import { appendEvent, newSession } from '../actors/sessions/session-model.js';
import { AGENT, install, T0 } from '../actors/sessions/test-fixtures.js';
import type { SessionFile } from '../store/formats/debug-session.js';
import { exportSession } from './maestro-export.js';
import { loadFlow } from './maestro-flow.js';

function session(): SessionFile {
  return newSession('s1', install(), null, 'unattributed', T0);
}

/** An agent action with its steps, as the sessions actor appends it. */
function act(s: SessionFile, tool: string, steps: UiStep[], success = true): void {
  appendEvent(
    s,
    {
      kind: 'agent_action',
      by: AGENT,
      summary: tool,
      action: {
        tool,
        kind: 'write',
        success,
        status: success ? 'ok' : 'tool_error',
        duration_ms: 5,
        serial: 'emulator-5554',
        steps,
      },
    },
    T0 + s.next_seq * 1000,
  );
}

function commandsOf(yaml: string): unknown[] {
  return parseAllDocuments(yaml)[1]!.toJSON() as unknown[];
}

describe('a debug session as a Maestro flow', () => {
  it('writes one command per step, elements by selector, points in percent, keys by Maestro name', () => {
    const s = session();
    act(s, 'launch_app', [{ do: 'launch', package: 'com.example.app', clear_state: false }]);
    act(s, 'ui_tap_element', [
      { do: 'tap', selector: { id: 'next' }, point: null, screen: null },
      { do: 'screen', selector: { text: 'Step 2' } },
    ]);
    act(s, 'ui_tap', [
      { do: 'tap', selector: null, point: { x: 540, y: 1200 }, screen: { width: 1080, height: 2400 } },
    ]);
    act(s, 'send_ui_key', [{ do: 'key', key: 'KEYCODE_ENTER' }]);
    act(s, 'send_ui_key', [{ do: 'key', key: 'KEYCODE_BACK' }]);
    act(s, 'ui_swipe', [
      {
        do: 'swipe',
        from: { x: 540, y: 1800 },
        to: { x: 540, y: 600 },
        screen: { width: 1080, height: 2400 },
        duration_ms: 300,
      },
    ]);
    act(s, 'ui_scroll_until_element', [
      { do: 'scroll_until', selector: { text: 'Item 30' }, direction: 'down' },
    ]);
    act(s, 'restart_app', [{ do: 'launch', package: 'com.example.app', clear_state: true }]);
    act(s, 'open_deep_link', [{ do: 'open_link', url: 'example://item/7' }]);
    act(s, 'stop_app', [{ do: 'stop', package: 'com.other' }]);
    const out = exportSession(s);
    expect(parseAllDocuments(out.yaml)[0]!.toJSON()).toEqual({
      appId: 'com.example.app',
      name: 'debug session s1',
    });
    expect(commandsOf(out.yaml)).toEqual([
      'launchApp',
      { tapOn: { id: 'next' } },
      { tapOn: { point: '50%,50%' } },
      { pressKey: 'Enter' },
      'back',
      { swipe: { start: '50%,75%', end: '50%,25%', duration: 300 } },
      { scrollUntilVisible: { element: { text: 'Item 30' }, direction: 'DOWN' } },
      { launchApp: { clearState: true } },
      { openLink: 'example://item/7' },
      { stopApp: 'com.other' },
    ]);
    expect(out.commands).toBe(10);
  });

  it('makes text typed into password fields a variable, one per field, and never the text', () => {
    const s = session();
    act(s, 'ui_fill_input', [
      { do: 'tap', selector: { id: 'email' }, point: null, screen: null },
      { do: 'type', text: 'ada@example.com', secret: false, field: 'email' },
      { do: 'tap', selector: { id: 'confirmPassword' }, point: null, screen: null },
      { do: 'type', text: null, secret: true, field: 'confirmPassword' },
      { do: 'type', text: null, secret: true, field: 'confirmPassword' },
      { do: 'type', text: null, secret: true, field: null },
    ]);
    const out = exportSession(s);
    expect(commandsOf(out.yaml)).toEqual([
      { tapOn: { id: 'email' } },
      { inputText: 'ada@example.com' },
      { tapOn: { id: 'confirmPassword' } },
      { inputText: '${CONFIRM_PASSWORD}' },
      { inputText: '${CONFIRM_PASSWORD}' },
      { inputText: '${SECRET}' },
    ]);
    expect(out.variables).toEqual([
      { name: 'CONFIRM_PASSWORD', field: 'confirmPassword' },
      { name: 'SECRET', field: null },
    ]);
    expect(out.yaml).toContain('maestro test -e CONFIRM_PASSWORD=… -e SECRET=…');
  });

  it('ends with an assertion of the last screen; a wait keeps it, an action replaces it', () => {
    const s = session();
    act(s, 'ui_tap_element', [
      { do: 'tap', selector: { text: 'Sign in' }, point: null, screen: null },
      { do: 'screen', selector: { text: 'Home' } },
    ]);
    act(s, 'wait_for_element', [{ do: 'wait', selector: { text: '.*welcome.*' }, timeout_ms: 10_000 }]);
    const out = exportSession(s);
    expect(commandsOf(out.yaml)).toEqual([
      { tapOn: 'Sign in' },
      { extendedWaitUntil: { visible: '.*welcome.*', timeout: 10_000 } },
      { assertVisible: 'Home' },
    ]);
    act(s, 'send_ui_key', [{ do: 'key', key: 'KEYCODE_HOME' }]);
    expect(commandsOf(exportSession(s).yaml).at(-1)).toEqual({ pressKey: 'Home' });
  });

  it("after a crash closes with the app's last screen gone, never the launcher's label (issue 71)", () => {
    const s = session();
    const app = s.package;
    act(s, 'ui_tap_element', [
      { do: 'tap', selector: { text: 'Sign in' }, point: null, screen: null },
      { do: 'screen', selector: { text: 'Home' }, package: app },
    ]);
    // The crash button: the app dies, the launcher is in front, its first label is Chrome.
    act(s, 'ui_tap_element', [
      { do: 'tap', selector: { id: 'crash' }, point: null, screen: null },
      { do: 'screen', selector: { text: 'Chrome' }, package: 'com.google.android.apps.nexuslauncher' },
    ]);
    const commands = commandsOf(exportSession(s).yaml);
    expect(commands.at(-1)).toEqual({ assertNotVisible: 'Home' });
    expect(JSON.stringify(commands)).not.toContain('Chrome');
  });

  it('leaves out failed calls and tools without steps, and comments a key Maestro cannot press', () => {
    const s = session();
    act(s, 'install_apk', []);
    act(s, 'ui_tap_element', [{ do: 'tap', selector: { id: 'gone' }, point: null, screen: null }], false);
    act(s, 'send_ui_key', [{ do: 'key', key: 'KEYCODE_CAMERA' }]);
    const out = exportSession(s);
    expect(out.left_out).toEqual(['2 install_apk', '3 ui_tap_element (failed)']);
    expect(out.comments).toEqual(['pressed KEYCODE_CAMERA, a key Maestro cannot press']);
    expect(out.yaml).toContain('# pressed KEYCODE_CAMERA, a key Maestro cannot press');
    expect(out.commands).toBe(0);
  });

  it('keeps typed ${…} text from running as JavaScript when the flow runs', async () => {
    const s = session();
    act(s, 'ui_type_text', [
      { do: 'type', text: 'price ${total} and \\${kept}', secret: false, field: 'note' },
    ]);
    const { yaml } = exportSession(s);
    expect(commandsOf(yaml)).toEqual([{ inputText: 'price \\${total} and \\\\${kept}' }]);
    // Read back as Maestro evaluates it (Env.evaluateScripts): the text as it was typed.
    const flow = await loadFlow(yaml, 'f.yaml', async () => ({ text: '', path: '' }));
    expect(flow.commands[0]!.op).toEqual({ op: 'input', text: 'price ${total} and \\${kept}' });
  });

  it("writes a flow droidbus's own reader runs, given the variables", async () => {
    const s = session();
    act(s, 'launch_app', [{ do: 'launch', package: 'com.example.app', clear_state: false }]);
    act(s, 'ui_fill_input', [
      { do: 'tap', selector: { id: 'password' }, point: null, screen: null },
      { do: 'erase', characters: null },
      { do: 'type', text: null, secret: true, field: 'password' },
      { do: 'screen', selector: { text: 'Sign in' } },
    ]);
    const { yaml } = exportSession(s);
    const flow = await loadFlow(yaml, 'exported.yaml', async () => ({ text: '', path: '' }), {
      PASSWORD: 'pw',
    });
    expect(flow.commands.map((c) => c.op.op)).toEqual(['launch', 'tap', 'erase', 'input', 'assert']);
    expect(flow.commands[3]!.op).toEqual({ op: 'input', text: 'pw' });
  });
});
