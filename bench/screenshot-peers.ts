/**
 * bench/peers' screenshot row on real phones' screens: droidbus's `screenshot` and mobile-mcp's
 * `mobile_take_screenshot` in both its modes (mobilecli, its default, and legacy adb), each a real
 * stdio MCP server driven by the SDK client, against one simulated device whose `screencap` serves
 * each capture of tests/fixtures/screenshots in turn (`sim screencap load`), then the neutral anchor
 * (boxes and glyph text, 1080×2400) and the simulator's own screen. Per image and server: the call's
 * median time, the image it answered (size, format, bytes) and its image tokens; the servers are
 * called in a rotated order each round, so the machine's drift cancels.
 *
 *   npm run build && npx tsx bench/screenshot-peers.ts [--rounds 9] [--json]
 */
import { readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';
import { AdbClient } from '../src/adb/client.js';
import { imageTokens } from './lib/image-tokens.js';
import { startSimProcess } from '../src/loadtest/sim-process.js';
import { runProcess } from '../src/util/exec.js';
import { numberFlag } from './lib/flags.js';
import {
  CLI,
  peerBenchHome,
  mobilecliProblem,
  startServer,
  stopMobilecliDaemon,
  type ServerName,
} from './lib/peer.js';
import { anchorPng } from './lib/anchor-screen.js';
import { quantile } from './stats.js';

const ROUNDS = numberFlag('rounds', 9);
const FIXTURES = path.join(import.meta.dirname, '..', 'tests', 'fixtures', 'screenshots');

interface Answer {
  ms: number;
  width: number;
  height: number;
  format: string;
  bytes: number;
}

async function shoot(
  client: NonNullable<Awaited<ReturnType<typeof startServer>>>,
  name: ServerName,
  serial: string,
): Promise<Answer> {
  const t0 = performance.now();
  const r = (await client.callTool(
    name === 'droidbus'
      ? { name: 'screenshot', arguments: { device_serial: serial } }
      : { name: 'mobile_take_screenshot', arguments: { device: serial } },
    undefined,
    { timeout: 30_000 },
  )) as CallToolResult;
  const ms = performance.now() - t0;
  const image = r.content.find((c) => c.type === 'image');
  if (r.isError === true || image === undefined || image.type !== 'image') {
    throw new Error(`${name}: no image: ${JSON.stringify(r.content).slice(0, 200)}`);
  }
  const data = Buffer.from(image.data, 'base64');
  const meta = await sharp(data).metadata();
  return { ms, width: meta.width, height: meta.height, format: meta.format, bytes: data.length };
}

async function main(): Promise<void> {
  const { home, port, onDefault, env } = await peerBenchHome('droidbus-shot-peers-');
  const adb = (args: string[]) =>
    runProcess('adb', ['-P', String(port), ...args], { env, timeoutMs: 60_000 });
  if ((await adb(['start-server'])).code !== 0) {
    throw new Error('adb start-server failed');
  }
  let sim: Awaited<ReturnType<typeof startSimProcess>> | null = null;
  const clients: { name: ServerName; client: NonNullable<Awaited<ReturnType<typeof startServer>>> }[] = [];
  const skipped: string[] = [];
  try {
    sim = await startSimProcess({
      cli: CLI,
      adbPort: port,
      client: new AdbClient({ kind: 'tcp', host: '127.0.0.1', port, source: 'bench' }),
      devices: 1,
      dumpLatencyMs: 100,
      logcatRate: 0,
      env,
    });
    const serial = sim.serials[0]!;
    for (const name of ['droidbus', 'mobilecli', 'legacy'] as const) {
      const problem = name === 'mobilecli' ? mobilecliProblem(onDefault) : null;
      if (problem !== null) {
        skipped.push(`${name}: ${problem}`);
        continue;
      }
      clients.push({
        name,
        client: await startServer(name, env, ['--toolsets', 'ui'], 'droidbus-bench-shots'),
      });
    }
    const images: { name: string; load: string | null }[] = [];
    const anchor = path.join(home, 'anchor.png');
    await sharp(await anchorPng()).toFile(anchor);
    for (const file of [
      ...readdirSync(FIXTURES)
        .filter((f) => /\.(png|jpg)$/.test(f))
        .sort(),
      anchor,
    ]) {
      const local = path.isAbsolute(file) ? file : path.join(FIXTURES, file);
      const remote = `/data/local/tmp/${path.basename(local)}`;
      if ((await adb(['-s', serial, 'push', local, remote])).code !== 0) {
        throw new Error(`adb push ${local} failed`);
      }
      images.push({ name: path.basename(local).replace(/\.(png|jpg)$/, ''), load: remote });
    }
    images.push({ name: "the simulator's own screen", load: null });
    const table: Record<string, Record<string, Answer & { tokens: number; p90: number }>> = {};
    for (const image of images) {
      await adb([
        '-s',
        serial,
        'shell',
        image.load === null ? 'sim screencap reset' : `sim screencap load ${image.load}`,
      ]);
      const samples = new Map<ServerName, Answer[]>();
      for (let round = 0; round <= ROUNDS; round++) {
        for (let i = 0; i < clients.length; i++) {
          const { name, client } = clients[(i + round) % clients.length]!;
          const a = await shoot(client, name, serial);
          if (round > 0) {
            samples.set(name, [...(samples.get(name) ?? []), a]);
          }
        }
      }
      table[image.name] = {};
      for (const [name, list] of samples) {
        const last = list[list.length - 1]!;
        table[image.name]![name] = {
          ...last,
          ms: quantile(
            list.map((a) => a.ms),
            0.5,
          ),
          p90: quantile(
            list.map((a) => a.ms),
            0.9,
          ),
          tokens: imageTokens(last.width, last.height),
        };
      }
      process.stderr.write(`${image.name}: done\n`);
    }
    if (process.argv.includes('--json')) {
      console.log(JSON.stringify({ rounds: ROUNDS, skipped, table }, null, 2));
      return;
    }
    const names = clients.map((c) => c.name);
    console.log(
      `bench/screenshot-peers: ${ROUNDS} rounds, load average ${os
        .loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')}${skipped.length ? `; not run: ${skipped.join('; ')}` : ''}`,
    );
    console.log(
      `| image | ${names.map((n) => `${n}: median ms · image · tokens`).join(' | ')} | droidbus ms / best peer ms | droidbus tokens / best peer's |`,
    );
    console.log(`|---|${names.map(() => '---').join('|')}|---|---|`);
    for (const [image, row] of Object.entries(table)) {
      const cells = names.map((n) => {
        const a = row[n]!;
        return `${a.ms.toFixed(1)} · ${a.width}×${a.height} ${a.format} ${Math.round(a.bytes / 1024)} KB · ${a.tokens}`;
      });
      const peers = names.filter((n) => n !== 'droidbus').map((n) => row[n]!);
      const best = peers.reduce((a, b) => (b.ms < a.ms ? b : a));
      const d = row['droidbus']!;
      console.log(
        `| ${image} | ${cells.join(' | ')} | ${(d.ms / best.ms).toFixed(2)} | ${(d.tokens / Math.min(...peers.map((p) => p.tokens))).toFixed(2)} |`,
      );
    }
  } finally {
    for (const { client } of clients) {
      await client.close().catch(() => undefined);
    }
    await stopMobilecliDaemon(env).catch(() => undefined);
    await sim?.stop();
    await adb(['kill-server']).catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
