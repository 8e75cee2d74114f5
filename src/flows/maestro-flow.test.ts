import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../tests/helpers/paths.js';
import { SUPPORTED_COMMANDS } from './commands/index.js';
import { FlowError, loadFlow, type ReadFlowFile } from './maestro-flow.js';

// Maestro's own reader fixtures (tests/fixtures/maestro/SOURCES.md: maestro v1.39.10), read with
// droidbus's reader; what each holds is what Maestro's YamlCommandReaderTest.kt says of it.
const FIXTURES = path.join(ROOT, 'tests', 'fixtures', 'maestro');

function fixture(name: string): string {
  return readFileSync(path.join(FIXTURES, name), 'utf8');
}

/** A reader of an in-memory set of flow files. */
function files(map: Record<string, string>): ReadFlowFile {
  return async (file) => {
    // Nested flows are named from the canonical path the reader answered for their parent.
    const key = path.normalize(file).replace(/^\/project\//, '');
    const text = map[key];
    if (text === undefined) {
      throw new FlowError(`${file}: does not exist in the project`);
    }
    return { text, path: `/project/${key}` };
  };
}

const none = files({});

async function refusal(text: string, env: Record<string, string> = {}, read = none): Promise<string> {
  try {
    await loadFlow(text, 'flow.yaml', read, env);
  } catch (err) {
    if (err instanceof FlowError) {
      return err.message;
    }
    throw err;
  }
  throw new Error('the flow was read');
}

describe("Maestro's own reader fixtures", () => {
  it('reads launchApp alone as a launch of the config’s app that stops it first', async () => {
    const flow = await loadFlow(fixture('002_launchApp.yaml'), '002.yaml', none);
    expect(flow.appId).toBe('com.example.app');
    expect(flow.commands.map((c) => c.op)).toEqual([
      { op: 'launch', appId: 'com.example.app', clearState: false, stopApp: true },
    ]);
  });

  it('reads launchApp with clearState', async () => {
    const flow = await loadFlow(fixture('003_launchApp_withClearState.yaml'), '003.yaml', none);
    expect(flow.commands[0]!.op).toMatchObject({ op: 'launch', clearState: true });
  });

  it('refuses a config without appId, and a flow without a config', async () => {
    expect(await refusal(fixture('005_config_noAppId.yaml'))).toContain('needs appId');
    expect(await refusal(fixture('015_onlyCommands.yaml'))).toContain(
      'a flow has a config section and a commands section separated by "---"',
    );
  });

  it('accepts unknown config keys, as Maestro keeps them', async () => {
    const flow = await loadFlow(fixture('008_config_unknownKeys.yaml'), '008.yaml', none);
    expect(flow.commands).toHaveLength(1);
  });

  it('refuses an unknown command, in a map or bare, naming it and its line', async () => {
    expect(await refusal(fixture('009_invalidCommand.yaml'))).toBe(
      'flow.yaml:3: invalid is not a Maestro command',
    );
    expect(await refusal(fixture('010_invalidCommand_string.yaml'))).toBe(
      'flow.yaml:3: invalid is not a Maestro command',
    );
  });

  it('reads back as a bare name', async () => {
    const flow = await loadFlow(fixture('018_backPress_string.yaml'), '018.yaml', none);
    expect(flow.commands[0]).toMatchObject({ name: 'back', op: { op: 'key', key: 'KEYCODE_BACK' } });
  });

  it("reads short forms: inputText's numbers and booleans as Maestro's InputTextCommand texts", async () => {
    const text = fixture('024_string_non_string_commands.yaml')
      .split('\n')
      .filter((l) => /^(appId|---|- inputText|- tapOn|- assertVisible|- back|- hideKeyboard)/.test(l))
      .join('\n');
    const flow = await loadFlow(text, '024.yaml', none);
    expect(flow.commands.filter((c) => c.name === 'inputText').map((c) => c.op)).toEqual(
      [
        'correct horse battery staple',
        'correct horse battery staple',
        '4',
        'false',
        '1683113805263',
        '4.12',
      ].map((t) => ({ op: 'input', text: t })),
    );
    expect(flow.commands.find((c) => c.name === 'tapOn')!.op).toEqual({
      op: 'tap',
      selector: { text: 'Hello' },
      point: null,
      retryIfNoChange: true,
    });
  });

  it('refuses the first command it does not run in the short-form fixture, by name and line', async () => {
    const refused = await refusal(fixture('024_string_non_string_commands.yaml'));
    expect(refused).toBe(
      `flow.yaml:9: assertTrue is a Maestro command droidbus does not run; it runs ${SUPPORTED_COMMANDS.join(', ')}`,
    );
    expect(refused).toContain('longPressOn, ');
  });

  it('reads labels as the words a report uses, and refuses doubleTapOn by name', async () => {
    expect(await refusal(fixture('023_labels.yaml'))).toMatch(
      /^flow\.yaml:7: doubleTapOn is a Maestro command/,
    );
    const firstTap = fixture('023_labels.yaml').split('\n').slice(0, 6).join('\n');
    const flow = await loadFlow(firstTap, '023.yaml', none);
    expect(flow.commands[0]).toMatchObject({ describe: 'Tap on the important button', line: 4 });
  });

  it('reads swipes in percent and pixels, and scrollUntilVisible; refuses a swipe from an element', async () => {
    const text = fixture('027_waitToSettleTimeoutMs.yaml');
    expect(await refusal(text)).toContain('flow.yaml:15: swipe field from is not supported by droidbus');
    const cut = text.split('\n');
    const withoutElementSwipe = [...cut.slice(0, 14), ...cut.slice(19)].join('\n');
    const flow = await loadFlow(withoutElementSwipe, '027.yaml', none);
    expect(flow.commands.map((c) => c.op)).toEqual([
      {
        op: 'scroll_until',
        selector: { id: 'maybe-later' },
        direction: 'down',
        timeoutMs: 20_000,
        settleMs: 50,
      },
      // waitToSettleTimeoutMs: a wait for the screen to hold still after each (flow-runner.ts).
      { op: 'swipe', start: '90%, 50%', end: '10%, 50%', durationMs: 400, settleMs: 50 },
      { op: 'swipe', start: '90%,50%', end: '10%,50%', durationMs: 400, settleMs: 50 },
      { op: 'swipe', start: '100, 200', end: '300, 400', durationMs: 400, settleMs: 50 },
    ]);
    const tap = await loadFlow(
      'appId: app\n---\n- tapOn:\n    text: Go\n    waitToSettleTimeoutMs: 90000\n',
      'f.yaml',
      none,
    );
    // TapOnElementCommand.MAX_TIMEOUT_WAIT_TO_SETTLE_MS: YamlFluentCommand clamps a tap's to 30 s.
    expect(tap.commands[0]!.op).toMatchObject({ op: 'tap', settleMs: 30_000 });
  });
});

describe('variables', () => {
  const flow = (body: string, config = '') => `appId: app\n${config}---\n${body}`;

  it("fills ${NAME} with the flow's env over the run's, as Maestro defines them, and keeps the names it used", async () => {
    const f = await loadFlow(
      flow(
        '- inputText: ${USER}\n- inputText: "${GREETING}, ${USER}"\n- inputText: ${HOST}\n',
        'env:\n  USER: ada\n  GREETING: hi\n  HOST: ${HOST}.example.com\n',
      ),
      'f.yaml',
      none,
      { USER: 'grace', HOST: 'staging' },
    );
    // Maestro's TestRunner defines the run's variables (-e) first, the flow's env after them.
    expect(f.commands.map((c) => c.op)).toEqual([
      { op: 'input', text: 'ada' },
      { op: 'input', text: 'hi, ada' },
      { op: 'input', text: 'staging.example.com' },
    ]);
    expect(f.variables).toEqual(['HOST', 'USER', 'GREETING']);
    // The words of a step keep the variable, never its value (a password stays out of reports).
    expect(f.commands[0]!.describe).toBe('inputText: ${USER}');
  });

  it("holds a variable's value as Maestro's Rhino engine does: escapes read, line breaks dropped, an unreadable one refused", async () => {
    const f = await loadFlow(
      flow(
        '- inputText: ${A}\n- inputText: ${B}\n',
        'env:\n  A: "tab\\\\there\\x41"\n  B: |\n    two\n    lines\n',
      ),
      'f.yaml',
      none,
    );
    expect(f.commands.map((c) => c.op)).toEqual([
      // YAML's double quotes leave `tab\\thereA`; Rhino then reads \\t as a tab.
      { op: 'input', text: 'tab\thereA' },
      { op: 'input', text: 'twolines' },
    ]);
    expect(await refusal(flow('- inputText: ${P}\n'), { P: 'ends\\' })).toBe(
      "the run env: the value of P ends with a backslash, which Maestro's JavaScript engine cannot read",
    );
  });

  it('keeps an escaped \\${ literal, and an empty ${} is empty, as Maestro evaluates them', async () => {
    const f = await loadFlow(flow('- inputText: "cost \\\\${PRICE}${}"\n'), 'f.yaml', none);
    expect(f.commands[0]!.op).toEqual({ op: 'input', text: 'cost ${PRICE}' });
  });

  it('refuses a variable without a value and JavaScript, naming them and the line', async () => {
    expect(await refusal(flow('- back\n- inputText: ${PASSWORD}\n'))).toBe(
      "flow.yaml:4: ${PASSWORD} has no value: give it in the run's env (or the flow's env:)",
    );
    expect(await refusal(flow('- inputText: ${output.token}\n'))).toContain(
      '${output.token} is JavaScript, which droidbus does not run',
    );
  });
});

describe('runFlow', () => {
  it('inlines a file named relative to the flow, with its env, and names the file of each step', async () => {
    const read = files({
      'flows/login.yaml': 'appId: app\n---\n- tapOn: Sign in\n- inputText: ${SECRET}\n',
    });
    const f = await loadFlow(
      'appId: app\n---\n- launchApp\n- runFlow:\n    file: login.yaml\n    env:\n      SECRET: ${PASSWORD}\n- back\n',
      'flows/main.yaml',
      read,
      { PASSWORD: 'p' },
    );
    expect(f.commands.map((c) => [c.index, c.file, c.line, c.name])).toEqual([
      [1, 'flows/main.yaml', 3, 'launchApp'],
      [2, 'login.yaml', 3, 'tapOn'],
      [3, 'login.yaml', 4, 'inputText'],
      [4, 'flows/main.yaml', 8, 'back'],
    ]);
    expect(f.commands[2]!.op).toEqual({ op: 'input', text: 'p' });
    expect(f.variables).toEqual(expect.arrayContaining(['PASSWORD', 'SECRET']));
  });

  it('inlines commands given in place', async () => {
    const f = await loadFlow(
      'appId: app\n---\n- runFlow:\n    commands:\n      - back\n      - hideKeyboard\n',
      'f.yaml',
      none,
    );
    expect(f.commands.map((c) => c.name)).toEqual(['back', 'hideKeyboard']);
  });

  it('refuses a flow that runs itself, a condition, and a missing file', async () => {
    const loop = files({
      'a.yaml': 'appId: app\n---\n- runFlow: b.yaml\n',
      'b.yaml': 'appId: app\n---\n- runFlow: a.yaml\n',
    });
    expect(await refusal('appId: app\n---\n- runFlow: a.yaml\n', {}, loop)).toMatch(
      /runs itself|nests more than/,
    );
    expect(
      await refusal('appId: app\n---\n- runFlow:\n    file: a.yaml\n    when:\n      visible: x\n'),
    ).toContain("runFlow's when (a condition) is not supported");
    expect(await refusal('appId: app\n---\n- runFlow: missing.yaml\n')).toContain(
      'missing.yaml: does not exist',
    );
  });
});

describe('what droidbus refuses before running', () => {
  const one = (command: string) => refusal(`appId: app\n---\n${command}`);

  it("refuses selectors it does not match (relative, size, traits) by the field's name", async () => {
    expect(await one('- tapOn:\n    text: Save\n    below: Title\n')).toContain(
      'selector field below is not supported',
    );
    expect(await one('- assertVisible:\n    width: 20\n')).toContain('selector field width is not supported');
  });

  it('refuses an unknown key name, listing Maestro’s', async () => {
    expect(await one('- pressKey: Shift\n')).toMatch(
      /unknown key name "Shift"; Maestro's are Enter, Backspace, Back, Home/,
    );
  });

  it('refuses a screenshot name with a folder, and a malformed point', async () => {
    expect(await one('- takeScreenshot: ../../etc/x\n')).toContain("a screenshot's name is letters");
    expect(await one('- tapOn:\n    point: 10;20\n')).toContain('point is "x,y"');
  });

  it('refuses a link no app should open, and opening one in a browser, before running', async () => {
    expect(await one('- openLink: javascript:alert(1)\n')).toMatch(/^flow\.yaml:3: /);
    expect(await one('- openLink:\n    link: https://example.com\n    browser: true\n')).toContain(
      'openLink field browser is not supported',
    );
  });

  it('refuses YAML aliases that multiply a small file into a huge one', async () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) {
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(', ')}]`,
      );
    }
    const message = await refusal(`appId: app\n${bomb.join('\n')}\n---\n- back\n`);
    expect(message).toMatch(/^flow\.yaml: .*(alias|resource exhaustion)/i);
  });

  it('refuses a command map with two keys and a YAML error, with the line', async () => {
    expect(await one('- tapOn: a\n  back: b\n')).toContain('a command is a map with one key');
    expect(await one('- tapOn: [a\n')).toMatch(/^flow\.yaml: /);
  });

  it('refuses JavaScript in ${…} wherever it is — appId, env defaults, keys — and fills plain names there (issue 68)', async () => {
    expect(await refusal("appId: ${APP_ID || 'com.example.default'}\n---\n- back\n")).toMatch(
      /^flow\.yaml: \$\{APP_ID \|\| 'com\.example\.default'\} is JavaScript/,
    );
    expect(await refusal('appId: app\nenv:\n  X: ${1+1}\n---\n- back\n')).toContain('${1+1} is JavaScript');
    expect(await refusal('appId: app\n---\n- tapOn:\n    ${eval(x)}: 1\n')).toContain(
      '${eval(x)} is JavaScript',
    );
    const flow = await loadFlow(
      'appId: ${APP_ID}\nenv:\n  USER: ${PARAM}@example.com\n---\n- inputText: ${USER}\n',
      'f.yaml',
      none,
      { APP_ID: 'com.example.app', PARAM: 'ada' },
    );
    expect(flow.appId).toBe('com.example.app');
    expect(flow.commands[0]!.op).toEqual({ op: 'input', text: 'ada@example.com' });
    expect(flow.variables.sort()).toEqual(['APP_ID', 'PARAM', 'USER']);
    expect(await refusal('appId: ${APP_ID}\n---\n- back\n')).toContain('${APP_ID} has no value');
  });

  it("opens http(s) and the app's declared schemes only, refusing others by name (issue 68)", async () => {
    for (const link of [
      'googlechrome://navigate?url=javascript:alert(1)',
      'view-source:https://example.com',
      'market://details?id=com.evil',
      'tel:+14155550199',
    ]) {
      const scheme = link.split(':')[0]!;
      expect(await one(`- openLink: "${link}"\n`)).toContain(`'${scheme}:' is refused`);
    }
    const ok = await loadFlow(
      'appId: app\n---\n- openLink: https://example.com/a\n- openLink: myapp://item/7\n',
      'f.yaml',
      none,
      {},
      ['myapp'],
    );
    expect(ok.commands.map((c) => c.op)).toEqual([
      { op: 'open_link', link: 'https://example.com/a' },
      { op: 'open_link', link: 'myapp://item/7' },
    ]);
    expect(await one('- openLink: myapp://item/7\n')).toContain('declares in its manifest (none found');
  });

  it('bounds YAML alias use per document, not per command (issue 68)', async () => {
    // One command whose in-place runFlow repeats an anchored list: each alias is small, many are not.
    const many = Array(40).fill('*steps').join(', ');
    const text = `appId: app\n---\n- runFlow:\n    commands: &steps [back, back]\n- runFlow:\n    commands: [${many}]\n`;
    expect(await refusal(text)).toMatch(
      /40 YAML aliases \(\*name\) in one section; a flow may use at most 32/,
    );
    const wide = Array.from({ length: 30 }, () => '*w').join(', ');
    const big = `appId: app\n---\n- runFlow:\n    env: &w {${Array.from({ length: 800 }, (_, i) => `K${i}: v`).join(', ')}}\n    commands: [back]\n- runFlow:\n    env: {}\n    commands: [back]\n    label: [${wide}]\n`;
    expect(await refusal(big)).toContain('expands to more than 20,000 values in one section');
  });

  it('reads as Maestro v1.39.10 does: the TV Input HDMI keys, a negative scroll timeout, a sub-flow env that wins (issue 71)', async () => {
    const keys = await loadFlow(
      'appId: app\n---\n- pressKey: TV Input HDMI 1\n- pressKey: tv input hdmi 3\n',
      'f.yaml',
      none,
    );
    expect(keys.commands.map((c) => c.op)).toEqual([
      { op: 'key', key: 'KEYCODE_TV_INPUT_HDMI_1' },
      { op: 'key', key: 'KEYCODE_TV_INPUT_HDMI_3' },
    ]);
    const scroll = await loadFlow(
      'appId: app\n---\n- scrollUntilVisible:\n    element: Item 30\n    timeout: -200\n',
      'f.yaml',
      none,
    );
    expect(scroll.commands[0]!.op).toMatchObject({ op: 'scroll_until', timeoutMs: 20_000 });
    const nested = files({ 'sub.yaml': 'appId: app\nenv:\n  WHO: sub\n---\n- inputText: ${WHO}\n' });
    const flow = await loadFlow(
      'appId: app\nenv:\n  WHO: parent\n---\n- runFlow: sub.yaml\n- inputText: ${WHO}\n',
      'main.yaml',
      nested,
    );
    expect(flow.commands.map((c) => c.op)).toEqual([
      { op: 'input', text: 'sub' },
      { op: 'input', text: 'parent' },
    ]);
  });

  it('refuses by name the fields droidbus would not act on, and reads the values it does (issue 71)', async () => {
    for (const field of ['speed: 40', 'visibilityPercentage: 50', 'centerElement: true']) {
      expect(await one(`- scrollUntilVisible:\n    element: Item 30\n    ${field}\n`)).toContain(
        `scrollUntilVisible field ${field.split(':')[0]} is not supported by droidbus`,
      );
    }
    expect(await one('- openLink:\n    link: https://example.com\n    autoVerify: true\n')).toContain(
      'openLink field autoVerify is not supported',
    );
    const ok = await loadFlow(
      'appId: app\n---\n- tapOn:\n    text: Save\n    retryTapIfNoChange: false\n- openLink:\n    link: https://example.com\n    autoVerify: false\n',
      'f.yaml',
      none,
    );
    expect(ok.commands.map((c) => c.op.op)).toEqual(['tap', 'open_link']);
  });

  it('reads retryTapIfNoChange as Maestro does: true unless a flow says false, on element and point taps', async () => {
    const taps = await loadFlow(
      'appId: app\n---\n- tapOn: Save\n- tapOn:\n    text: Save\n    retryTapIfNoChange: false\n- tapOn:\n    point: 50%,50%\n    retryTapIfNoChange: false\n- tapOn:\n    point: 10,10\n',
      'f.yaml',
      none,
    );
    expect(taps.commands.map((c) => (c.op.op === 'tap' ? c.op.retryIfNoChange : null))).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect(await one('- tapOn:\n    text: Save\n    retryTapIfNoChange: maybe\n')).toContain(
      'retryTapIfNoChange',
    );
  });
});
