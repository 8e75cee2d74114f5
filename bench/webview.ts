/**
 * bench/webview: reading a WebView's page (issue 73) against the native dump of the same screen.
 * A debuggable build of the sample whose WebActivity page has 200 elements (100 labelled fields,
 * 60 buttons, 40 links) runs on a sim device, its WebView in the sim's real Chromium; through
 * droidbus mcp (the built CLI) it is read ROUNDS times with get_webview_page and with
 * get_ui_hierarchy. Prints median / p99 ms, the answer's text bytes and tokens (bytes / 4, the
 * usual estimate), and the rows each answer names — what an agent can act on.
 *
 * Run: npm run build && npx tsx bench/webview.ts   (BENCH_ROUNDS=20 by default)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { debugSampleApk, SAMPLE_WEB_ACTIVITY, WEBVIEW_DEBUG_PACKAGE } from '../tests/helpers/webview-apk.js';
import { startAdbServer } from '../tests/helpers/adb-server.js';
import { startMcp } from '../tests/helpers/mcp-client.js';
import { tempDir } from '../tests/helpers/paths.js';
import { startSimFarm } from '../tests/helpers/sim-farm.js';
import { printTable, quantile } from './stats.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 20);
const PKG = WEBVIEW_DEBUG_PACKAGE;
const WEB = SAMPLE_WEB_ACTIVITY;

/** A page of 200 interactive elements: 100 labelled fields, 60 buttons, 40 links. */
function bigPage(): string {
  const parts: string[] = [];
  for (let i = 0; i < 100; i++) {
    parts.push(`<label for="f${i}">Field ${i}</label><input id="f${i}" placeholder="value ${i}">`);
  }
  for (let i = 0; i < 60; i++) {
    parts.push(`<button id="b${i}">Action ${i}</button>`);
  }
  for (let i = 0; i < 40; i++) {
    parts.push(`<a href="#l${i}">Link ${i}</a> `);
  }
  return `<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width"><title>200 elements</title></head><body>${parts.join('\n')}</body></html>`;
}

function textOf(r: CallToolResult): string {
  return r.content
    .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

async function main(): Promise<void> {
  const dir = tempDir('droidbus-bench-webview-');
  const server = await startAdbServer();
  const farm = await startSimFarm(server, { devices: 1, dumpLatencyMs: 100 });
  const serial = farm.devices[0]!.serial;
  const mcp = await startMcp(['--toolsets', 'core,ui,web'], {
    env: { ...(server.env as Record<string, string>), DROIDBUS_HOME: join(dir.dir, 'home') },
  });
  try {
    const apk = join(dir.dir, 'big.apk');
    writeFileSync(apk, debugSampleApk(bigPage()));
    await server.adb(['-s', serial, 'install', apk]);
    await server.adb(['-s', serial, 'shell', `am start -W -n ${PKG}/${WEB}`]);
    const call = async (name: string, args: Record<string, unknown>) => {
      const t = performance.now();
      const r = (await mcp.client.callTool({
        name,
        arguments: { device_serial: serial, ...args },
      })) as CallToolResult;
      const ms = performance.now() - t;
      if (r.isError) {
        throw new Error(`${name}: ${textOf(r)}`);
      }
      return { ms, r };
    };
    // The page loads in Chromium once; the first read waits for it.
    for (let tries = 0; ; tries++) {
      const first = await call('get_webview_page', { max_rows: 500 }).catch(() => null);
      if (
        first !== null &&
        ((first.r.structuredContent as { rows: unknown[] } | undefined)?.rows.length ?? 0) >= 200
      ) {
        break;
      }
      if (tries > 50) {
        throw new Error('the 200-element page never loaded');
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const rows: Record<string, string | number>[] = [];
    for (const [tool, args, count] of [
      [
        'get_webview_page',
        { max_rows: 500 },
        (s: Record<string, unknown>) => (s['rows'] as unknown[]).length,
      ],
      [
        'get_ui_hierarchy',
        { max_rows: 500 },
        (s: Record<string, unknown>) => (s['rows'] as unknown[]).length,
      ],
    ] as const) {
      const times: number[] = [];
      let last: CallToolResult | null = null;
      for (let i = 0; i < ROUNDS; i++) {
        const { ms, r } = await call(tool, args);
        times.push(ms);
        last = r;
      }
      const bytes = Buffer.byteLength(textOf(last!), 'utf8');
      rows.push({
        answer: tool,
        'median ms': quantile(times, 0.5).toFixed(1),
        'p99 ms': quantile(times, 0.99).toFixed(1),
        'text bytes': bytes,
        tokens: Math.round(bytes / 4),
        rows: count(last!.structuredContent as Record<string, unknown>),
      });
    }
    printTable(`a 200-element web page, ${ROUNDS} reads each (sim device, dump latency 100 ms)`, rows);
  } finally {
    await mcp.close();
    await farm.stop();
    await server.stop();
    dir.remove();
  }
}

await main();
