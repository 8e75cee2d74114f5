/**
 * The page under /ui of `droidbus host --http`, in a real browser: it keeps the HTTP frontend's
 * Host check, and an OAuth approval given on the page (the 2-digit number match) completes an SDK
 * client's authorization flow.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbServer } from '../helpers/adb-server.js';
import type { AdbServer } from '../helpers/adb-server.js';
import { shortTempDir, waitFor } from '../helpers/host.js';
import { rawRequest, startHttpHost } from '../helpers/http-host.js';
import type { HttpHost } from '../helpers/http-host.js';
import { saveScreenshot, startBrowser } from '../helpers/page-browser.js';
import type { TestBrowser } from '../helpers/page-browser.js';
import { MemoryOAuthProvider, REDIRECT } from '../helpers/oauth-client.js';
import { runCli } from '../helpers/run-cli.js';

const home = shortTempDir('db-pgo-');
let env: Record<string, string>;
let server: AdbServer;
let host: HttpHost;
let browser: TestBrowser;
let page: Page;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startAdbServer();
  env = { ...(server.env as Record<string, string>), DROIDBUS_HOME: home.dir };
  host = await startHttpHost({ env });
  browser = await startBrowser();
  page = await browser.context.newPage();
});
afterAll(async () => {
  for (const c of clients) {
    await c.close().catch(() => undefined);
  }
  await browser?.close();
  await host?.stop();
  await server?.stop();
  home.remove();
});

describe('the page under /ui of the HTTP frontend', () => {
  it("serves the page on the HTTP port behind the frontend's Host check", async () => {
    const link = (await waitFor(() => /page: (\S+)/.exec(host.stdout()), 'the login link'))[1]!;
    expect(link.startsWith(`${host.base}/ui/login?t=`)).toBe(true);
    const rebound = await rawRequest(`${host.base}/ui/`, { headers: { host: `evil.example:${host.port}` } });
    expect(rebound.status).toBe(403);
    expect((await rawRequest(`${host.base}/ui/`)).status).toBe(401);
    await page.goto(link);
    await page.getByRole('link', { name: 'Trust & approvals' }).click();
    await page.getByText(`An application connecting to ${host.mcpUrl} with OAuth`).waitFor();
  });

  it("completes an SDK client's OAuth flow when the user approves its number on the page", async () => {
    const provider = new MemoryOAuthProvider('page-approved agent');
    const first = new Client({ name: 'page-approved agent', version: '1.0.0' });
    await expect(
      first.connect(new StreamableHTTPClientTransport(new URL(host.mcpUrl), { authProvider: provider })),
    ).rejects.toThrow(UnauthorizedError);
    // The consent page the agent's user opens: its number, and where it continues.
    const consent = await (await fetch(provider.authorizationUrl!)).text();
    const code = /id="approval-code">(\d{2})</.exec(consent)?.[1];
    const next = /http-equiv="refresh" content="\d+;url=([^"]+)"/.exec(consent)?.[1];
    expect(code).toBeDefined();
    const continueUrl = new URL(next!, host.base);
    expect((await fetch(continueUrl, { redirect: 'manual' })).status).toBe(200);

    const approval = page.locator(`li.approval[data-code="${code}"]`);
    await approval.waitFor({ timeout: 10_000 });
    expect(await approval.textContent()).toContain('page-approved agent');
    expect(await approval.textContent()).toContain('127.0.0.1:9');
    await saveScreenshot(page, 'page-approvals');
    await approval.getByRole('button', { name: `Approve ${code}` }).click();
    await page.getByText('Approved page-approved agent').waitFor();
    await approval.waitFor({ state: 'detached' });

    const redirect = await fetch(continueUrl, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const landed = new URL(redirect.headers.get('location')!);
    expect(landed.origin + landed.pathname).toBe(REDIRECT);
    const transport = new StreamableHTTPClientTransport(new URL(host.mcpUrl), { authProvider: provider });
    await transport.finishAuth(landed.searchParams.get('code')!);
    const client = new Client({ name: 'page-approved agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(host.mcpUrl), { authProvider: provider }));
    clients.push(client);
    const result = await client.callTool({ name: 'get_project_info', arguments: {} });
    expect(result.isError).toBeFalsy();
    const waiting = await runCli(['approve'], { env });
    expect(waiting.stdout).toContain('No OAuth request is waiting');
  });
});
