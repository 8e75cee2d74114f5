import { afterAll, describe, expect, it } from 'vitest';
import { readHistoryFrom } from '../helpers/history.js';
import { shortTempDir, startHostProcess, waitFor } from '../helpers/host.js';
import { startMcp } from '../helpers/mcp-client.js';
import { runCli } from '../helpers/run-cli.js';
import { writeSampleProject } from '../../src/sim/index.js';

// The host quitting while an attached agent's build runs: the build is cancelled first and recorded
// as cancelled because the host quit, and the agent's call says so.

const work = shortTempDir('db-hqb-');
afterAll(() => work.remove());

describe('when the host quits during a build', () => {
  it('cancels the build, records who cancelled it, and tells the agent in its error', async () => {
    const project = `${work.dir}/app`;
    await writeSampleProject(project);
    const home = `${work.dir}/home`;
    const env = { DROIDBUS_HOME: home, SIM_GRADLE_DURATION_MS: '60000' };
    expect((await runCli(['trust', project], { env })).code).toBe(0);
    const host = await startHostProcess(['--project', project], { env });
    const session = await startMcp(['--project', project], { env });
    try {
      expect(session.client.getServerVersion()?.title).toContain('attached');
      let progressed = false;
      const call = session.client.callTool(
        { name: 'run_gradle_task', arguments: { task: 'assembleDemoDebug' } },
        undefined,
        { onprogress: () => (progressed = true), timeout: 120_000 },
      );
      await waitFor(() => progressed, 'the build to report progress');
      await host.stop('SIGTERM');
      const result = await call;
      expect(result.isError).toBe(true);
      const text = (result.content as { text: string }[])[0]!.text;
      expect(text).toContain('the droidbus host quit');
      expect(text).toContain('was cancelled and recorded as cancelled because the host quit');
      const record = readHistoryFrom(home).at(-1);
      expect(record).toMatchObject({
        task: 'assembleDemoDebug',
        result: 'cancelled',
        cancelled_by: { kind: 'host_quit' },
      });
    } finally {
      await session.close();
      await host.stop('SIGKILL');
    }
  });
});
