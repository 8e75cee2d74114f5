/**
 * A build whose droidbus process was killed mid-build (kill -9) leaves its build lock's owner file
 * and no history record. The next droidbus process that reads the history records it as failed,
 * interrupted, and removes the stale lock — through the built CLI and its MCP tools.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSampleProject } from '../../src/sim/index.js';
import { buildLockPath } from '../../src/actors/build/build-lock.js';
import { startMcp, type McpSessionHandle } from '../helpers/mcp-client.js';
import { tempDir } from '../helpers/paths.js';
import { readHistory } from '../helpers/build-project.js';

const home = tempDir('droidbus-interrupted-');
const work = tempDir('droidbus-interrupted-project-');
let mcp: McpSessionHandle;
let root: string;

beforeAll(async () => {
  await writeSampleProject(work.dir);
  root = realpathSync(work.dir);
  // What a killed process leaves: its lock directory and the owner file naming its build.
  const previous = process.env['DROIDBUS_HOME'];
  process.env['DROIDBUS_HOME'] = home.dir;
  const lock = buildLockPath(root);
  process.env['DROIDBUS_HOME'] = previous;
  mkdirSync(lock, { recursive: true });
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  writeFileSync(
    lock.replace(/\.lock$/, '.owner.json'),
    JSON.stringify({
      pid: dead,
      project_root: root,
      build_id: 'b20261202-000000-0dead0',
      task: 'assembleDemoDebug',
      started_at: new Date(Date.now() - 5_000).toISOString(),
      origin: { kind: 'agent', session_id: 's-killed', client_name: 'killed-agent', standalone: true },
    }),
  );
  mcp = await startMcp([], { env: { DROIDBUS_HOME: home.dir }, cwd: root });
});
afterAll(async () => {
  await mcp?.close();
  home.remove();
  work.remove();
});

describe('a build whose process died', () => {
  it('is recorded as interrupted by the next process that reads the history, and its lock goes', async () => {
    const status = await mcp.client.callTool({ name: 'get_build_status', arguments: {} });
    expect(status.structuredContent).toMatchObject({ status: 'failed', task: 'assembleDemoDebug' });
    const [record] = readHistory(home.dir);
    expect(record).toMatchObject({
      id: 'b20261202-000000-0dead0',
      result: 'failed',
      origin: { kind: 'agent', client_name: 'killed-agent' },
    });
    expect(record!.reason).toMatch(/^interrupted: the droidbus process that ran it \(pid \d+\) ended/);
    const lock = path.join(home.dir, 'build-locks');
    expect(existsSync(lock) ? readdirSync(lock) : []).toEqual([]);
    // Read again: recorded once.
    await mcp.client.callTool({ name: 'get_build_status', arguments: {} });
    expect(readHistory(home.dir)).toHaveLength(1);
  });
});
