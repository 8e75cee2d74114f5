/**
 * The screenshot an agent gets, measured on real phones' screens: for every capture in
 * tests/fixtures/screenshots (raw device captures from public apps' store listings, SOURCES.md there),
 * a synthetic anchor (boxes and glyph text, 1080×2400) and the simulator's own screen, each served by
 * the simulator's `screencap -p` as a phone writes it (RGBA PNG), every candidate path is run on the
 * host side by side: bytes, image tokens, host time (median) and legibility (the share of the
 * capture's words tesseract still reads, tests/helpers/legibility.ts).
 *
 *   npx tsx bench/screenshot.ts [--runs 9] [--json]
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { AreaAverager } from './lib/area-average.js';
import { forEachPngRow, streamableChannels } from './lib/png-stream.js';
import {
  encodeImage,
  readPngInfo,
  scaleScreenshot,
  type ScreenshotFormat,
} from '../src/actors/device/screenshot/screenshot-scale.js';
import { imageTokens } from './lib/image-tokens.js';
import { createSimDevice, runOn } from '../src/sim/index.js';
import { legibility, ocrWords } from '../tests/helpers/legibility.js';
import { testIdentity } from '../tests/helpers/sim-identity.js';
import { anchorPng } from './lib/anchor-screen.js';
import { numberFlag } from './lib/flags.js';
import { quantile, timeLoop } from './stats.js';

sharp.cache(false);
const RUNS = numberFlag('runs', 9);
const JSON_OUT = process.argv.includes('--json');
const FIXTURES = path.join(import.meta.dirname, '..', 'tests', 'fixtures', 'screenshots');

interface Out {
  image: Uint8Array;
  width: number;
  height: number;
}

type Candidate = (capture: Uint8Array) => Promise<Out>;

const viaScale =
  (max: number, format: ScreenshotFormat): Candidate =>
  async (capture) => {
    const r = await scaleScreenshot(capture, { max_dimension: max, format });
    if (!r.ok) {
      throw new Error(r.error.message);
    }
    return { image: r.value.image, width: r.value.imageWidth, height: r.value.imageHeight };
  };

/**
 * The path before this bench: rows area-averaged in JS as the PNG inflates
 * (bench/lib/area-average.ts, png-stream.ts), then encoded.
 */
const viaArea =
  (max: number, format: 'jpeg' | 'png'): Candidate =>
  async (capture) => {
    const header = readPngInfo(capture);
    if (!header.ok) {
      throw new Error(header.error.message);
    }
    const { width: w, height: h } = header.value;
    const ratio = Math.max(w, h) / max;
    const width = Math.round(w / ratio);
    const height = Math.round(h / ratio);
    const channels = streamableChannels(header.value)!;
    const averager = new AreaAverager(w, h, channels, width, height);
    await forEachPngRow(capture, header.value, channels, (row) => averager.pushRow(row));
    const image = await encodeImage(
      sharp(averager.finish(), { raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } }),
      format,
    );
    return { image, width, height };
  };

const CANDIDATES: Record<string, Candidate> = {
  'capture as is (png)': async (capture) => {
    const m = await sharp(capture).metadata();
    return { image: capture, width: m.width, height: m.height };
  },
  'area average → png 1280 (before)': viaArea(1280, 'png'),
  'area average → jpeg 1024': viaArea(1024, 'jpeg'),
  'libvips → png 1280': viaScale(1280, 'png'),
  'libvips → png 1024': viaScale(1024, 'png'),
  'libvips → jpeg 1280': viaScale(1280, 'jpeg'),
  'libvips → jpeg 1024 (default)': viaScale(1024, 'jpeg'),
  'libvips → webp 1024': viaScale(1024, 'webp'),
};

/** Every input as the simulator's `screencap -p` serves it. */
async function captures(): Promise<{ name: string; png: Uint8Array }[]> {
  const dev = createSimDevice({ identity: testIdentity(5980), logcatRate: 0 });
  const out: { name: string; png: Uint8Array }[] = [];
  const serve = async (name: string, bytes: Uint8Array): Promise<void> => {
    await runOn(dev, 'cat > /data/local/tmp/shot', { stdin: bytes });
    const load = await runOn(dev, 'sim screencap load /data/local/tmp/shot');
    if (load.code !== 0) {
      throw new Error(`${name}: ${load.stderr}`);
    }
    out.push({ name, png: (await runOn(dev, 'screencap -p')).bytes });
  };
  for (const file of readdirSync(FIXTURES)
    .filter((f) => /\.(png|jpg)$/.test(f))
    .sort()) {
    await serve(file.replace(/\.(png|jpg)$/, ''), readFileSync(path.join(FIXTURES, file)));
  }
  await serve('anchor: boxes and glyph text 1080x2400', await anchorPng());
  await runOn(dev, 'sim screencap reset');
  out.push({ name: "the simulator's own screen", png: (await runOn(dev, 'screencap -p')).bytes });
  return out;
}

interface Cell {
  image: string;
  candidate: string;
  bytes: number;
  tokens: number;
  ms: number;
  legible: number | null;
}

const cells: Cell[] = [];
for (const { name, png } of await captures()) {
  const meta = await sharp(png).metadata();
  const reference = await ocrWords(png);
  for (const [candidate, run] of Object.entries(CANDIDATES)) {
    const out = await run(png);
    const ms = quantile(await timeLoop(RUNS, () => run(png), 1), 0.5);
    cells.push({
      image: name,
      candidate,
      bytes: out.image.length,
      tokens: imageTokens(out.width, out.height),
      ms: Math.round(ms * 10) / 10,
      legible: await legibility(reference, out.image, meta.width, meta.height),
    });
  }
  if (!JSON_OUT) {
    console.error(
      `${name}: ${meta.width}x${meta.height}, ${png.length} B, ${reference.size} words read at full size`,
    );
  }
}

if (JSON_OUT) {
  console.log(JSON.stringify(cells, null, 2));
} else {
  const pct = (x: number | null): string => (x === null ? 'n/a' : `${Math.round(x * 100)} %`);
  console.log('| image | path | bytes | tokens | host ms | words kept |');
  console.log('|---|---|---|---|---|---|');
  for (const c of cells) {
    console.log(
      `| ${c.image} | ${c.candidate} | ${c.bytes.toLocaleString('en')} | ${c.tokens} | ${c.ms} | ${pct(c.legible)} |`,
    );
  }
  console.log('\n| path | median host ms | tokens (sum) | bytes (sum) | words kept (median, text images) |');
  console.log('|---|---|---|---|---|');
  for (const candidate of Object.keys(CANDIDATES)) {
    const mine = cells.filter((c) => c.candidate === candidate);
    const kept = mine.map((c) => c.legible).filter((x): x is number => x !== null);
    console.log(
      `| ${candidate} | ${quantile(
        mine.map((c) => c.ms),
        0.5,
      )} | ${mine.reduce((a, c) => a + c.tokens, 0).toLocaleString('en')} | ${mine
        .reduce((a, c) => a + c.bytes, 0)
        .toLocaleString('en')} | ${pct(kept.length > 0 ? quantile(kept, 0.5) : null)} |`,
    );
  }
}
