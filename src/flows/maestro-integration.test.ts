import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../tests/helpers/paths.js';
import { FlowError, loadFlow, type ReadFlowFile } from './maestro-flow.js';

// Cases of Maestro's own IntegrationTest.kt (mobile-dev-inc/maestro v1.39.10,
// maestro-test/src/test/kotlin/maestro/test/IntegrationTest.kt), on their flows byte for byte
// (tests/fixtures/maestro/integration/SOURCES.md): the same flow read by droidbus must come to the
// same events Maestro's fake driver records. Reading decides these cases (what each variable holds
// when a step runs); the cases that need a screen run on the simulator in tests/e2e.

const DIR = path.join(ROOT, 'tests', 'fixtures', 'maestro', 'integration');

const read: ReadFlowFile = async (file) => {
  const name = path.basename(file);
  try {
    return { text: readFileSync(path.join(DIR, name), 'utf8'), path: path.join(DIR, name) };
  } catch {
    throw new FlowError(`${file}: does not exist`);
  }
};

/** The flow read as IntegrationTest's readCommands reads it, `-e` variables given; the texts typed. */
async function typed(caseName: string, env: Record<string, string> = {}): Promise<string[]> {
  const file = `${caseName}.yaml`;
  const flow = await loadFlow(readFileSync(path.join(DIR, file), 'utf8'), file, read, env);
  return flow.commands.flatMap((c) => (c.op.op === 'input' ? [c.op.text] : []));
}

describe("Maestro's IntegrationTest, env cases", () => {
  it('Case 057 - Pass inner env variables to runFlow', async () => {
    expect(await typed('057_runFlow_env', { OUTER_ENV: 'Outer Parameter' })).toEqual([
      'Inner Parameter',
      'Outer Parameter',
      'Overriden Parameter',
    ]);
  });

  it('Case 058 - Inline env parameters', async () => {
    expect(await typed('058_inline_env')).toEqual(['Inline Parameter', 'Overriden Parameter']);
  });

  it('Case 060 - Pass env param to an env param', async () => {
    expect(await typed('060_pass_env_to_env', { PARAM: 'Value' })).toEqual(['Value', 'Value', 'Value']);
  });

  it('Case 094 - Subflow with inlined commands', async () => {
    expect(await typed('094_runFlow_inline')).toEqual(['Inner Parameter']);
  });

  it('Case 077 - Env special characters', async () => {
    // IntegrationTest's -e value is the Kotlin string "!@#\$&*()_+{}|:\"<>?[]\\\\;',./" (two
    // backslashes); Maestro types one backslash and no trailing newline for both.
    const value = `!@#$&*()_+{}|:"<>?[]\\\\;',./`;
    expect(await typed('077_env_special_characters', { OUTER: value })).toEqual([
      `!@#$&*()_+{}|:"<>?[]\\;',./`,
      `!@#$&*()_+{}|:"<>?[]\\;',./`,
    ]);
  });
});

/** The flow's commands as read: each command's name and operation. */
async function readCase(caseName: string): Promise<{ appId: string; ops: unknown[] }> {
  const file = `${caseName}.yaml`;
  const flow = await loadFlow(readFileSync(path.join(DIR, file), 'utf8'), file, read);
  return { appId: flow.appId, ops: flow.commands.map((c) => c.op) };
}

describe("Maestro's IntegrationTest, cases reading decides", () => {
  it('Case 020 - Parse config: the appId, and launchApp of it', async () => {
    expect(await readCase('020_parse_config')).toEqual({
      appId: 'com.example.app',
      ops: [{ op: 'launch', appId: 'com.example.app', clearState: false, stopApp: true }],
    });
  });

  it('Case 041 - Take screenshot: ${MAESTRO_FILENAME} is the flow file without .yaml', async () => {
    expect((await readCase('041_take_screenshot')).ops).toEqual([
      { op: 'screenshot', name: '041_take_screenshot_with_filename' },
    ]);
  });

  it("Case 046 - Run flow: the sub-flow's launchApp of its own appId, then the tap", async () => {
    // 013_launch_app.yaml's config names com.example.app; the parent's is com.other.app.
    expect(await readCase('046_run_flow')).toEqual({
      appId: 'com.other.app',
      ops: [
        { op: 'launch', appId: 'com.example.app', clearState: false, stopApp: true },
        { op: 'tap', selector: { text: 'Primary button' }, point: null, retryIfNoChange: true },
      ],
    });
  });

  it('Case 047 - Nested run flow', async () => {
    expect((await readCase('047_run_flow_nested')).ops).toEqual([
      { op: 'launch', appId: 'com.example.app', clearState: false, stopApp: true },
      { op: 'tap', selector: { text: 'Primary button' }, point: null, retryIfNoChange: true },
      { op: 'tap', selector: { text: 'Secondary Button' }, point: null, retryIfNoChange: true },
    ]);
  });

  it('Case 085 and 095: autoVerify: true and launch arguments are refused by name', async () => {
    await expect(readCase('085_open_link_auto_verify')).rejects.toThrow(
      '085_open_link_auto_verify.yaml:3: openLink field autoVerify is not supported by droidbus',
    );
    await expect(readCase('095_launch_arguments')).rejects.toThrow(
      '095_launch_arguments.yaml:6: launchApp field arguments is not supported by droidbus',
    );
  });
});
