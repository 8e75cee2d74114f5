/**
 * What `droidbus mcp` answers to lines no well-behaved client sends — invalid JSON, bytes that are
 * not UTF-8, a batch, a value that is no JSON-RPC message, a line over the 16 MiB limit — each
 * the JSON-RPC error the specs name, and the session goes on: the next request is answered and the
 * process exits 0 when the client closes stdin. Raw bytes over a real pipe to the built CLI.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../helpers/paths.js';
import { until } from '../helpers/until.js';

const home = tempDir('droidbus-stdio-lines-');
let child: ChildProcessWithoutNullStreams;
let stdout = '';
let stderr = '';

type Answer = { jsonrpc: string; id: unknown; result?: unknown; error?: { code: number; message: string } };

const answers = (): Answer[] =>
  stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Answer);

/** Sends raw bytes and waits for the next answer. */
async function exchange(bytes: Buffer | string): Promise<Answer> {
  const before = answers().length;
  child.stdin.write(bytes);
  return until('an answer', () => answers()[before], 60_000);
}

beforeAll(async () => {
  child = spawn(process.execPath, [CLI, 'mcp'], {
    env: { ...process.env, DROIDBUS_HOME: home.dir },
    cwd: home.dir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const init = await exchange(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }) + '\n',
  );
  expect(init.result).toBeDefined();
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
});
afterAll(() => {
  child?.kill();
  home.remove();
});

describe('lines no client should send', () => {
  it('answers invalid JSON with a parse error (-32700, id null)', async () => {
    const a = await exchange('{"jsonrpc":"2.0","id":2,"method":\n');
    expect(a).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(a.error!.message).toMatch(/^Parse error/);
  });

  it('answers bytes that are not UTF-8 with a parse error', async () => {
    const a = await exchange(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":3,"method":"ping","x":"'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}\n'),
      ]),
    );
    expect(a).toMatchObject({
      id: null,
      error: { code: -32700, message: 'Parse error: the line is not valid UTF-8' },
    });
  });

  it('answers a batch with invalid request (-32600): MCP 2025-06-18 removed them', async () => {
    const a = await exchange(JSON.stringify([{ jsonrpc: '2.0', id: 4, method: 'ping' }]) + '\n');
    expect(a).toMatchObject({ id: null, error: { code: -32600 } });
    expect(a.error!.message).toContain('batches are not supported');
  });

  it('answers a value that is no JSON-RPC message with invalid request, with its id', async () => {
    const a = await exchange(JSON.stringify({ jsonrpc: '1.0', id: 5, method: 'ping' }) + '\n');
    expect(a).toMatchObject({ id: 5, error: { code: -32600 } });
  });

  it('discards a line over 16 MiB with a parse error saying so, holding no more of it than the limit', async () => {
    const big =
      '{"jsonrpc":"2.0","id":6,"method":"ping","params":{"x":"' + 'a'.repeat(17 * 1024 * 1024) + '"}}\n';
    const a = await exchange(big);
    expect(a).toMatchObject({ id: null, error: { code: -32700 } });
    expect(a.error!.message).toContain(`longer than ${16 * 1024 * 1024} bytes`);
  });

  it('refuses a numeric id beyond 2^53 plainly rather than answering a rounded one', async () => {
    const a = await exchange('{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}\n');
    expect(a).toMatchObject({ id: null, error: { code: -32600 } });
    expect(a.error!.message).toContain('beyond 2^53');
    const ok = await exchange('{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}\n');
    expect(ok.id).toBe(9007199254740991);
  });

  it('goes on answering: the next request gets its answer, and closing stdin ends it with exit 0', async () => {
    const a = await exchange(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }) + '\n');
    expect(a.id).toBe(7);
    const names = (a.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_devices', 'get_ui_hierarchy', 'install_apk']));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/ReadBuffer|exceeded/);
  });
});

describe('a session that cannot go on', () => {
  it('says why on stderr and exits 1 when its stdout breaks (the client stopped reading)', async () => {
    const gone = spawn(process.execPath, [CLI, 'mcp'], {
      env: { ...process.env, DROIDBUS_HOME: home.dir },
      cwd: home.dir,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    gone.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    let out = '';
    gone.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const ping = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }) + '\n';
    gone.stdin.write(ping(1));
    await until('the first answer', () => (out.includes('"id":1') ? true : undefined), 60_000);
    gone.stdout.destroy();
    const exited = new Promise<number | null>((resolve) => gone.once('exit', resolve));
    gone.stdin.write(ping(2));
    expect(await exited).toBe(1);
    expect(err).toMatch(/droidbus mcp: the session ended: stdout failed: .*EPIPE/);
  });
});
