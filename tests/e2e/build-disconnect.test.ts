/**
 * A client that disconnects does not stop the build it started: the standalone `droidbus mcp`
 * finishes the build, records it, writes the call's answer (the client closed stdin only) and only
 * then exits. Driven with raw JSON-RPC lines so the test
 * can close stdin mid-build without the SDK client's follow-up SIGTERM.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../helpers/paths.js';
import { readHistory, setTrust, writeSample } from '../helpers/build-project.js';

const home = tempDir('droidbus-build-disconnect-home-');
const work = tempDir('droidbus-build-disconnect-');
const project = path.join(work.dir, 'app');

beforeAll(async () => {
  await writeSample(project, home.dir);
  await setTrust(project, home.dir, true);
});
afterAll(() => {
  home.remove();
  work.remove();
});

describe('a client that goes away mid-build', () => {
  it('leaves its build running: it completes, is recorded, and then the server exits', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--project', project], {
      env: { ...process.env, DROIDBUS_HOME: home.dir, SIM_GRADLE_DURATION_MS: '4000' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const sawProgress = new Promise<void>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString('utf8');
        if (stdout.includes('"notifications/progress"')) {
          resolve();
        }
      });
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const send = (message: unknown): void => {
      child.stdin.write(JSON.stringify(message) + '\n');
    };
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'leaving-client', version: '1' },
      },
    });
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (stdout.includes('"id":1')) {
          child.stdout.off('data', check);
          resolve();
        }
      };
      child.stdout.on('data', check);
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'run_gradle_task',
        arguments: { task: 'assembleDemoDebug' },
        _meta: { progressToken: 'p1' },
      },
    });
    await sawProgress;
    const leftAt = Date.now();
    child.stdin.end();

    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, stderr).toBe(0);
    // It closed stdin only (its end of stdout still open): the call's answer was written before exit.
    expect(stdout).toMatch(/"id":2\}/);
    expect(stdout).toContain('BUILD SUCCESSFUL');
    const record = readHistory(home.dir).find((r) => r.task === 'assembleDemoDebug');
    expect(record).toMatchObject({
      result: 'success',
      cancelled_by: null,
      origin: { kind: 'agent', client_name: 'leaving-client' },
    });
    expect(Date.parse((record as unknown as { ended_at: string }).ended_at)).toBeGreaterThan(leftAt);
    expect(record?.apks[0]?.package).toBe('com.droidbus.sample.demo.debug');
  });
});
