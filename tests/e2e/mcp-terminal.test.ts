/**
 * `droidbus mcp` started by hand in a terminal says on stderr what it waits for (a new user's trip:
 * it used to print nothing). A pseudo-terminal from util-linux's `script` makes stdin a TTY.
 */
import { spawn } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { CLI, tempDir } from '../helpers/paths.js';

const home = tempDir('droidbus-tty-');
afterAll(() => home.remove());

it('says it is waiting for an MCP client when stdin is a terminal', async () => {
  const child = spawn('script', ['-qec', `${process.execPath} ${CLI} mcp`, '/dev/null'], {
    env: { ...process.env, DROIDBUS_HOME: home.dir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let seen = '';
  const said = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes('waiting for an MCP client')) {
        clearTimeout(timer);
        resolve(true);
      }
    });
  });
  child.kill('SIGTERM');
  expect(said, seen).toBe(true);
  expect(seen).toContain('Register it with your agent');
}, 30_000);

it('says nothing of the kind when an MCP client drives it through pipes', async () => {
  const child = spawn(process.execPath, [CLI, 'mcp'], {
    env: { ...process.env, DROIDBUS_HOME: home.dir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  // It is serving once it answers a request on stdout.
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  expect(stderr).not.toContain('waiting for an MCP client');
}, 30_000);
