/**
 * `droidbus status` names the address of the host's page, readable and as JSON, and says nothing of
 * a page when the host serves none (`--no-ui`). The built host runs as a real process against a
 * private adb server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbServer } from '../helpers/adb-server.js';
import type { AdbServer } from '../helpers/adb-server.js';
import { shortTempDir, startHostProcess, waitFor } from '../helpers/host.js';
import type { HostProcess } from '../helpers/host.js';
import { runCli } from '../helpers/run-cli.js';

interface StatusJson {
  host: { pid: number; page: { url: string } | null } | null;
}

const home = shortTempDir('db-stp-');
let server: AdbServer;
let env: Record<string, string>;
let host: HostProcess | undefined;

async function status(json: boolean): Promise<string> {
  const r = await runCli(json ? ['status', '--json'] : ['status'], { env });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

beforeAll(async () => {
  server = await startAdbServer();
  env = { ...(server.env as Record<string, string>), DROIDBUS_HOME: home.dir };
});
afterAll(async () => {
  await host?.stop();
  await server?.stop();
  home.remove();
});

describe('droidbus status and the host page', () => {
  it("prints the page's address when the host serves one, readable and in --json", async () => {
    host = await startHostProcess(['--ui', '127.0.0.1:0'], { env });
    const link = (await waitFor(() => /page: (\S+)/.exec(host!.stdout()), 'the login link'))[1]!;
    // The address is the page's own, never the one-time login link.
    const url = `${new URL(link).origin}/ui/`;
    const json = JSON.parse(await status(true)) as StatusJson;
    expect(json.host?.pid).toBe(host.pid);
    expect(json.host?.page).toEqual({ url });
    const text = await status(false);
    expect(text).toContain(`  page:    ${url} (log in with the link droidbus ui prints)`);
    expect(text).not.toContain('login?t=');
    await host.stop();
    host = undefined;
  });

  it('prints no page when the host serves none', async () => {
    host = await startHostProcess(['--no-ui'], { env });
    const json = JSON.parse(await status(true)) as StatusJson;
    expect(json.host?.pid).toBe(host.pid);
    expect(json.host?.page).toBeNull();
    expect(await status(false)).not.toMatch(/^ {2}page:/m);
  });
});
