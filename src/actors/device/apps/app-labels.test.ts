/**
 * list_apps's labels within their byte budget (issue 68: one call read 168 MB against a 96 MB
 * budget, checked only between APKs while four were read at once). Real APKs linked by aapt2
 * (tests/helpers/aapt2-apk.ts), read through a reader that counts every byte it hands over.
 */
import { AdbClient } from '../../../adb/client.js';
import { Device } from '../../../device/device.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkLabelledApkBytes } from '../../../../tests/helpers/aapt2-apk.js';
import { bytesReader, type ApkRangeReader } from '../../../util/apk-label.js';
import { END_RECORD_SEARCH_BYTES } from '../../../util/apk-zip.js';
import { readLabels, type LabelCache } from './app-labels.js';

const dir = mkdtempSync(join(tmpdir(), 'droidbus-labels-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let apk: Uint8Array;
beforeAll(() => {
  // Incompressible assets make it larger than the window its end is read in (as real apps are).
  apk = linkLabelledApkBytes(join(dir, 'app'), {
    packageName: 'com.example.pricebook',
    assets: { count: 2, bytes: 64 * 1024 },
  });
  expect(apk.length).toBeGreaterThan(2 * END_RECORD_SEARCH_BYTES);
});

/** Readers of the same APK for every path, and the bytes they handed over in all. */
function countingReaders(): { readerOf: (path: string) => ApkRangeReader; moved: () => number } {
  let moved = 0;
  const count = async (b: Promise<Uint8Array>): Promise<Uint8Array> => {
    const got = await b;
    moved += got.length;
    return got;
  };
  return {
    readerOf: () => {
      const r = bytesReader(apk);
      return { tail: () => count(r.tail()), range: (o, n) => count(r.range(o, n)) };
    },
    moved: () => moved,
  };
}

/** The labels of `of` within `bytes`, read through `readerOf`. */
function labels(
  cache: LabelCache,
  of: typeof targets,
  bytes: number,
  readerOf: (path: string) => ApkRangeReader,
) {
  return readLabels(
    new Device('s', new AdbClient()),
    cache,
    of,
    'en-US',
    AbortSignal.timeout(10_000),
    { bytes, ms: 10_000 },
    readerOf,
  );
}

const targets = Array.from({ length: 12 }, (_, i) => ({
  package: `com.example.app${i}`,
  apk: `/data/app/app${i}/base.apk`,
  lastUpdate: '2026-12-01 10:00:00',
}));

describe('list_apps labels within the byte budget', () => {
  it('never moves more bytes than its budget in one call, however many reads are in flight', async () => {
    // What one label costs, read alone with room to spare.
    const one = countingReaders();
    const alone = await labels(new Map(), targets.slice(0, 1), 1 << 30, one.readerOf);
    expect(alone.labels.get('com.example.app0')).toBe('Price Book');
    const perApp = one.moved();

    // Room for two and a half labels; four reads start at once (before, each was let start while
    // the bytes read so far were under the budget: four whole labels were read).
    const budget = Math.floor(perApp * 2.5);
    const counted = countingReaders();
    const cache: LabelCache = new Map();
    const r = await labels(cache, targets, budget, counted.readerOf);
    expect(counted.moved()).toBeLessThanOrEqual(budget);
    const read = [...r.labels.values()];
    expect(read.length).toBeGreaterThanOrEqual(2);
    expect(read.every((l) => l === 'Price Book')).toBe(true);
    expect(r.unread.length).toBe(targets.length - read.length);
    // What the budget left unread is not remembered as "no label": the next call reads it.
    expect(cache.size).toBe(read.length);
    const next = await labels(cache, targets, budget, countingReaders().readerOf);
    expect(next.labels.size).toBeGreaterThan(read.length);
  });
});
