/**
 * Host-side cost of the device actor's pure work, without any device:
 *   - parsing (repair + fast-xml-parser + tree) and formatting a 100 KB and a 1 MB dump built from
 *     the real fixture dumps, next to a bare fast-xml-parser parse of the same bytes;
 *   - downscaling 1080x2400 and 1440x3200 screenshots (generated here with sharp) to the default
 *     long edge (the product's path, scaleScreenshot), with the JS area-averager's decode, average and
 *     encode split out beside it (bench/screenshot.ts compares the paths on real screens).
 *
 * Run: npx tsx bench/ui-parse.ts
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { XMLParser } from 'fast-xml-parser';
import sharp from 'sharp';
import {
  compareStates,
  formatHierarchy,
  interactiveRows,
  parseUiDump,
  scaleScreenshot,
  screenHash,
  type UiTree,
} from '../src/actors/device/index.js';
import { areaAverage } from './lib/area-average.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../tests/fixtures/ui/${name}`, import.meta.url)).toString('utf8');

function rootNodeOf(xml: string): string {
  const start = xml.indexOf('<node');
  const end = xml.lastIndexOf('</hierarchy>');
  return xml.slice(start, end);
}

/** A dump of about `bytes` bytes: the real screens' node trees side by side under one root. */
function bigDump(bytes: number): Buffer {
  const parts = [
    rootNodeOf(fixture('spotlight-rotation1.xml')),
    rootNodeOf(fixture('lingbook-editor-entities.xml')),
  ];
  const head =
    '<?xml version=\'1.0\' encoding=\'UTF-8\' standalone=\'yes\' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="bench" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="true" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">';
  const tail = '</node></hierarchy>';
  let body = '';
  for (let i = 0; head.length + body.length + tail.length < bytes; i++) {
    body += parts[i % parts.length] ?? '';
  }
  return Buffer.from(head + body + tail, 'utf8');
}

interface Stats {
  median: number;
  p99: number;
  /** Median CPU time of the whole process per run (sharp's worker threads included). */
  cpu: number;
  runs: number;
}

async function measure(runs: number, fn: () => unknown): Promise<Stats> {
  for (let i = 0; i < Math.min(5, runs); i++) {
    await fn();
  }
  const times: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpus.push((used.user + used.system) / 1000);
  }
  const at = (list: number[], q: number): number => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  };
  return { median: at(times, 0.5), p99: at(times, 0.99), cpu: at(cpus, 0.5), runs };
}

const ms = (v: number): string => `${v.toFixed(2).padStart(8)} ms`;

function row(label: string, s: Stats, extra = ''): void {
  console.log(
    `  ${label.padEnd(38)} median ${ms(s.median)}   p99 ${ms(s.p99)}   cpu ${ms(s.cpu)}   (${s.runs} runs)${extra}`,
  );
}

async function benchDump(label: string, bytes: Buffer, runs: number): Promise<void> {
  const parsed = parseUiDump(bytes);
  if (!parsed.ok) {
    throw new Error(parsed.error.message);
  }
  const tree: UiTree = parsed.value;
  console.log(`\n${label}: ${(bytes.length / 1024).toFixed(0)} KiB, ${tree.node_count} nodes`);
  const bare = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', htmlEntities: true });
  const rawParse = await measure(runs, () => bare.parse(bytes.toString('utf8')));
  const parse = await measure(runs, () => parseUiDump(bytes));
  const hash = await measure(runs, () => screenHash(tree));
  const rows = await measure(runs, () => interactiveRows(tree));
  const format = await measure(runs, () => formatHierarchy(tree));
  const compare = await measure(runs, () => compareStates(tree, tree));
  const total = await measure(runs, () => {
    const t = parseUiDump(bytes);
    if (t.ok) {
      screenHash(t.value);
      interactiveRows(t.value);
      formatHierarchy(t.value);
    }
  });
  row('fast-xml-parser alone (reference)', rawParse);
  row(
    'parseUiDump (repair + parse + tree)',
    parse,
    `   ${(parse.median / rawParse.median).toFixed(2)}x the bare parse`,
  );
  row('screenHash', hash);
  row('interactiveRows (80)', rows);
  row('formatHierarchy (80 rows)', format);
  row('compareStates (same tree)', compare);
  row(
    'capture total: parse+hash+rows+format',
    total,
    `   ${(bytes.length / 1024 / 1024 / (total.median / 1000)).toFixed(1)} MiB/s`,
  );
}

/** A UI-like screenshot: bars, cards and text, so the PNG compresses like a real one. */
async function screen(width: number, height: number): Promise<Buffer> {
  const parts: string[] = [
    `<rect width="${width}" height="${height}" fill="#fafafa"/>`,
    `<rect width="${width}" height="${height / 30}" fill="#3c64d8"/>`,
  ];
  const card = Math.round(height / 12);
  for (let i = 0; i < 10; i++) {
    const y = Math.round(height / 20 + i * card * 1.1);
    parts.push(
      `<rect x="${width / 20}" y="${y}" width="${width * 0.9}" height="${card}" rx="12" fill="${i % 2 ? '#ffffff' : '#eef2ff'}" stroke="#c7c7c7"/>`,
      `<text x="${width / 10}" y="${y + card / 2}" font-family="DejaVu Sans" font-size="${Math.round(width / 24)}" fill="#222">Item ${i + 1} — the quick brown fox jumps</text>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function benchScreenshot(width: number, height: number, runs: number): Promise<void> {
  const png = await screen(width, height);
  const first = await scaleScreenshot(png);
  if (!first.ok) {
    throw new Error(first.error.message);
  }
  const { imageWidth: ow, imageHeight: oh } = first.value;
  console.log(
    `\nscreenshot ${width}x${height} (${(png.length / 1024).toFixed(0)} KiB PNG) → ${ow}x${oh} (${(first.value.image.length / 1024).toFixed(0)} KiB)`,
  );
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const small = areaAverage(data, info.width, info.height, info.channels, ow, oh);
  const scale = await measure(runs, () => scaleScreenshot(png));
  const decode = await measure(runs, () => sharp(png).raw().toBuffer());
  const average = await measure(runs, () =>
    areaAverage(data, info.width, info.height, info.channels, ow, oh),
  );
  const encode = await measure(runs, () =>
    sharp(small, { raw: { width: ow, height: oh, channels: info.channels } })
      .png({ compressionLevel: 2 })
      .toBuffer(),
  );
  const lanczos = await measure(runs, () =>
    sharp(png).resize(ow, oh, { kernel: 'lanczos3' }).png({ compressionLevel: 2 }).toBuffer(),
  );
  const fits = await measure(runs, () => scaleScreenshot(png, { full_size: true }));
  row('scaleScreenshot (libvips, default)', scale);
  row('  of which: decode (sharp)', decode);
  row('  of which: area average (JS)', average);
  row('  of which: encode PNG (sharp)', encode);
  row(
    'sharp resize lanczos3 (reference)',
    lanczos,
    `   ratio ${(scale.median / lanczos.median).toFixed(2)}x`,
  );
  row('full_size (byte for byte)', fits);
}

console.log(
  `ui-parse bench — node ${process.version}, sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores`,
);
console.log('wall-clock median and p99 per run, and the median CPU time of the process per run');
// The real launcher dump (25 nodes, 9.5 KB): the size of an app screen's dump.
await benchDump(
  '8 KB dump (real launcher screen)',
  readFileSync(new URL('../tests/fixtures/ui/launcher-pixel.xml', import.meta.url)),
  200,
);
await benchDump('100 KB dump', bigDump(100 * 1024), 60);
await benchDump('1 MB dump', bigDump(1024 * 1024), 20);
await benchScreenshot(1080, 2400, 15);
await benchScreenshot(1440, 3200, 15);
