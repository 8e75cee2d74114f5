import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimDevice } from './control/index.js';
import { EmulatorConsole } from './emulator-console.js';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup();
  }
});

/** Starts a console on a free port with the given token file; returns a function that runs one session. */
async function consoleWithToken(
  token: string | undefined,
): Promise<{ session: (input: string) => Promise<string>; killed: () => boolean }> {
  const dir = await mkdtemp(join(tmpdir(), 'droidbus-console-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const tokenPath = join(dir, '.emulator_console_auth_token');
  if (token !== undefined) {
    await writeFile(tokenPath, token);
  }
  let console: EmulatorConsole | undefined;
  for (let port = 5900 + 2 * (process.pid % 40); !console; port += 2) {
    console = await EmulatorConsole.listen(port).catch(() => undefined);
  }
  cleanups.push(() => console.close());
  const device = createSimDevice({
    identity: {
      serial: `emulator-${console.port}`,
      product: 'sdk_gphone64_x86_64',
      model: 'sdk_gphone64_x86_64',
      device: 'emu64xa',
      sdk: 34,
      release: '14',
      width: 1080,
      height: 2400,
      density: 420,
      avdName: 'Pixel_8_API_34',
    },
    logcatRate: 0,
  });
  cleanups.push(() => device.close());
  let killed = false;
  console.attach({ device, avdName: 'Pixel_8_API_34', tokenPath, onKill: () => (killed = true) });
  const session = (input: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: console.port });
      let out = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (out += chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(out));
      socket.write(input);
    });
  return { session, killed: () => killed };
}

describe('EmulatorConsole', () => {
  it('with a token file, refuses commands until `auth` gives the token', async () => {
    const { session } = await consoleWithToken('s3cret\n');
    const out = await session('avd name\nauth wrong\navd name\nauth s3cret\navd name\nquit\n');
    const lines = out.split('\r\n');
    expect(lines.slice(0, 3)).toEqual([
      'Android Console: Authentication required',
      "Android Console: type 'auth <auth_token>' to authenticate",
      'Android Console: you can find your <auth_token> in ',
    ]);
    expect(lines.slice(4)).toEqual([
      'OK',
      "KO: unknown command, try 'help'",
      lines[6],
      "KO: unknown command, try 'help'",
      "Android Console: type 'help' for a list of commands",
      'OK',
      'Pixel_8_API_34',
      'OK',
      '',
    ]);
    expect(lines[6]).toMatch(/^KO: authentication token does not match /);
  });

  it('without a token file, needs no auth', async () => {
    const { session } = await consoleWithToken(undefined);
    const out = await session('avd name\ngeo fix -122.08 37.42 12\nquit\n');
    expect(out).toBe(
      "Android Console: type 'help' for a list of commands\r\nOK\r\nPixel_8_API_34\r\nOK\r\nOK\r\n",
    );
  });

  it('answers `kill`, closes the session and tells the farm', async () => {
    const { session, killed } = await consoleWithToken('');
    const out = await session('kill\n');
    expect(out).toMatch(/OK: killing emulator, bye bye\r\n$/);
    expect(killed()).toBe(true);
  });
});
