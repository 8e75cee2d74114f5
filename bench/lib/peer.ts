/**
 * mobile-mcp (npm @mobilenext/mobile-mcp), the most-used TypeScript Android MCP server, as the
 * benches' peer: pinned, installed on first run into node_modules/.cache (its platform binaries keep
 * it out of the lockfile), started over stdio in either of its modes — mobilecli (its default) or
 * legacy adb (MOBILEMCP_LEGACY_ROBOT=1) — beside droidbus, and an adb server where mobilecli finds it
 * (it reaches only adb's default port 5037).
 */
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runProcess } from '../../src/util/exec.js';
import { installPinned } from '../../tests/helpers/npm-pinned.js';
import { freePort } from '../../src/util/free-port.js';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
export const MOBILE_MCP_VERSION = '1.0.4';
const PEER_DIR = fileURLToPath(
  new URL(`../../node_modules/.cache/bench-peers/${MOBILE_MCP_VERSION}`, import.meta.url),
);
const MOBILE_MCP = path.join(PEER_DIR, 'node_modules/@mobilenext/mobile-mcp/lib/index.js');
const ARCH = process.arch === 'x64' ? 'amd64' : process.arch;
const MOBILECLI = path.join(
  PEER_DIR,
  `node_modules/@mobilenext/mobilecli-${process.platform}-${ARCH}/mobilecli-${process.platform}-${ARCH}`,
);

export type ServerName = 'droidbus' | 'mobilecli' | 'legacy';
export const PEERS = ['mobilecli', 'legacy'] as const;

/** Installs mobile-mcp at its pinned version into PEER_DIR unless it is there. */
export function installPeer(): Promise<void> {
  return installPinned(PEER_DIR, [`@mobilenext/mobile-mcp@${MOBILE_MCP_VERSION}`], [MOBILE_MCP]);
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/** The adb server's port: 5037 when it is free (so mobilecli can run), else a free one. */
export async function adbPort(): Promise<{ port: number; onDefault: boolean }> {
  const onDefault = !(await listening(5037));
  return { port: onDefault ? 5037 : await freePort(), onDefault };
}

/** Why mobilecli cannot run on this adb port, or null when it can. */
export const mobilecliProblem = (onDefault: boolean): string | null =>
  onDefault ? null : 'adb port 5037 taken: mobilecli reaches no other port';

/** A connected MCP client of one server: droidbus with `droidbusArgs` after `mcp`, or mobile-mcp in a mode. */
export async function startServer(
  name: ServerName,
  env: Record<string, string>,
  droidbusArgs: string[],
  clientName: string,
): Promise<Client> {
  const transport =
    name === 'droidbus'
      ? new StdioClientTransport({
          command: process.execPath,
          args: [CLI, 'mcp', ...droidbusArgs],
          env,
          stderr: 'ignore',
        })
      : new StdioClientTransport({
          command: process.execPath,
          args: [MOBILE_MCP],
          env: {
            ...env,
            MOBILEMCP_DISABLE_TELEMETRY: '1',
            ...(name === 'legacy' ? { MOBILEMCP_LEGACY_ROBOT: '1' } : {}),
          },
          stderr: 'ignore',
        });
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** mobile-mcp starts mobilecli's daemon, which outlives it (parent pid 1) unless told to stop. */
export async function stopMobilecliDaemon(env: Record<string, string>): Promise<void> {
  await runProcess(MOBILECLI, ['daemon', 'stop'], { env, timeoutMs: 15_000 }).catch(() => undefined);
}

/**
 * What every bench against the peer starts from: the peer installed, a temp home of its own (HOME
 * and DROIDBUS_HOME inside it), the adb port (5037 when free, for mobilecli) and the environment that
 * keeps the adb server off a developer's emulators.
 */
export async function peerBenchHome(
  prefix: string,
  extraEnv: Record<string, string> = {},
): Promise<{ home: string; port: number; onDefault: boolean; env: Record<string, string> }> {
  await installPeer();
  const home = mkdtempSync(path.join(os.tmpdir(), prefix));
  const { port, onDefault } = await adbPort();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HOME: home,
    DROIDBUS_HOME: path.join(home, 'droidbus'),
    ANDROID_ADB_SERVER_PORT: String(port),
    ADB_EMU: '0',
    ADB_LOCAL_TRANSPORT_MAX_PORT: '5553',
    ...extraEnv,
  };
  return { home, port, onDefault, env };
}
