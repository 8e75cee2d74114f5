import { spawn } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortTempDir, startHostProcess, waitFor } from '../helpers/host.js';
import type { HostProcess } from '../helpers/host.js';
import { runCli } from '../helpers/run-cli.js';

/** The uid and gid of `nobody` on Debian; any uid other than the host's would do. */
const OTHER_UID = 65534;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * A client that connects to the socket, sends a session hello and prints what came back before the
 * connection closed, as JSON on stdout.
 */
const CLIENT = `
const net = require('node:net');
const socket = net.createConnection(process.argv[1]);
let got = '';
let error = null;
socket.on('connect', () => socket.write(JSON.stringify({ attach: 1, version: '0.1.0', session_id: 'intruder', project: null, pid: process.pid }) + '\\n'));
socket.on('data', (c) => { got += c.toString(); if (got.includes('\\n')) socket.destroy(); });
socket.on('error', (e) => (error = e.code));
socket.on('close', () => process.stdout.write(JSON.stringify({ uid: process.getuid(), got, error })));
setTimeout(() => { process.stdout.write(JSON.stringify({ uid: process.getuid(), got, error: 'still open' })); process.exit(0); }, 8000).unref();
`;

function connectAs(
  uid: number,
  socketPath: string,
): Promise<{ uid: number; got: string; error: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CLIENT, socketPath], {
      uid,
      gid: uid,
      cwd: '/',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('exit', () => {
      try {
        resolve(JSON.parse(out) as { uid: number; got: string; error: string | null });
      } catch {
        reject(new Error(`the client printed ${JSON.stringify(out)}; stderr ${err}`));
      }
    });
  });
}

describe.skipIf(!isRoot)('a connection from another user', () => {
  const home = shortTempDir('db-uid-');
  const env = { DROIDBUS_HOME: home.dir };
  let host: HostProcess;
  let socketPath: string;

  beforeAll(async () => {
    host = await startHostProcess([], { env });
    socketPath = path.join(home.dir, 'host.sock');
    // Every droidbus write re-tightens the data directory to 0700; wait for the host's first one.
    await waitFor(
      () => existsSync(path.join(home.dir, 'mcp-activity.jsonl')),
      "the host's first activity entry",
    );
    // Only in this test: open the directory and the socket to everyone, so that nothing but the
    // host's peer-uid check stands between another user and the host.
    chmodSync(home.dir, 0o711);
    chmodSync(socketPath, 0o666);
  });
  afterAll(async () => {
    await host?.stop();
    home.remove();
  });

  it('is dropped by the peer-uid check even when the socket lets it connect', async () => {
    expect(host.stdout()).toContain('peer check: connections from other users are dropped');
    const seen = await connectAs(OTHER_UID, socketPath);
    expect(seen.uid).toBe(OTHER_UID);
    expect(seen.got).toBe(''); // not even a refusal line: the connection is cut before the handshake
    await waitFor(
      () => host.stderr().includes(`dropped a connection from uid ${OTHER_UID}`),
      'the host to log the dropped connection',
    );
    const listed = JSON.parse((await runCli(['status', '--json'], { env })).stdout) as {
      host: { sessions: unknown[] };
    };
    expect(listed.host.sessions).toEqual([]);
  });

  it('still serves its own user on the same socket', async () => {
    const seen = await connectAs(process.getuid!(), socketPath);
    expect(JSON.parse(seen.got.split('\n')[0]!)).toMatchObject({ accepted: true });
  });
});
