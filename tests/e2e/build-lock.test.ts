/**
 * Builds of one project are exclusive across processes: two standalone `droidbus mcp` processes
 * sharing a data directory, the second refused while the first builds, naming the first's pid.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp, type McpSessionHandle } from '../helpers/mcp-client.js';
import { tempDir } from '../helpers/paths.js';
import { readHistory, setTrust, textOf, waitForRecord, writeSample } from '../helpers/build-project.js';
import { until } from '../helpers/until.js';

const home = tempDir('droidbus-build-lock-home-');
const work = tempDir('droidbus-build-lock-');
const project = path.join(work.dir, 'app');
let first: McpSessionHandle;
let second: McpSessionHandle;

beforeAll(async () => {
  await writeSample(project, home.dir);
  await setTrust(project, home.dir, true);
  const env = { DROIDBUS_HOME: home.dir, SIM_GRADLE_DURATION_MS: '30000' };
  first = await startMcp(['--project', project], { env });
  second = await startMcp(['--project', project], { env });
});
afterAll(async () => {
  await first?.close();
  await second?.close();
  home.remove();
  work.remove();
});

async function pidOf(session: McpSessionHandle): Promise<number> {
  const runtime = await session.client.readResource({ uri: 'droidbus://runtime' });
  return (JSON.parse((runtime.contents[0] as { text: string }).text) as { pid: number }).pid;
}

describe('the cross-process build lock', () => {
  it("refuses a second process's build of the same project, naming the first one's pid", async () => {
    const firstPid = await pidOf(first);
    const running = first.client.callTool({
      name: 'run_gradle_task',
      arguments: { task: 'assembleDemoDebug' },
    });
    await until(
      'the first build to start',
      async () => {
        const status = await first.client.callTool({ name: 'get_build_status', arguments: {} });
        return (status.structuredContent as { status: string }).status === 'running' ? true : undefined;
      },
      20_000,
    );

    const refused = await second.client.callTool({
      name: 'run_gradle_task',
      arguments: { task: 'assembleFullDebug' },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(`another droidbus process (pid ${firstPid}) is building this project`);
    expect(textOf(refused)).toContain('task assembleDemoDebug');

    // The first process's own session stops its build; the record says who did.
    const cancel = await first.client.callTool({ name: 'cancel_build', arguments: {} });
    expect(cancel.structuredContent).toMatchObject({ cancelled: true, result: 'cancelled' });
    const ended = await running;
    expect(ended.isError).toBe(true);
    expect(textOf(ended)).toMatch(
      /^BUILD CANCELLED — task 'assembleDemoDebug' \(variant demoDebug\) was cancelled by this agent/,
    );
    const record = await waitForRecord(home.dir, (r) => r.task === 'assembleDemoDebug');
    expect(record).toMatchObject({ result: 'cancelled', pid: firstPid, cancelled_by: { kind: 'agent' } });
    expect(readHistory(home.dir).some((r) => r.task === 'assembleFullDebug')).toBe(false);
  });
});
