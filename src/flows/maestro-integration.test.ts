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
