import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  badgingLabels,
  frameworkRes,
  labelForLocale as expected,
  linkLabelledApkBytes,
  type LinkOptions,
} from '../../tests/helpers/aapt2-apk.js';
import { bytesReader, readApkLabel } from './apk-label.js';
import { ResourceTable } from './apk-resources.js';
import { ApkFormatError, readZipEntries, readZipEntryData } from './apk-zip.js';

/**
 * Oracles: APKs linked by aapt2 (the resource compiler AGP runs) against Debian's framework-res.apk,
 * and `aapt dump badging` / `aapt dump --values resources` reading them. Locales are chosen as
 * Android's resolver does for a phone: language and region, then language, then the default.
 */
const dir = mkdtempSync(join(tmpdir(), 'droidbus-label-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const linkApk = (o: LinkOptions = {}): Uint8Array => linkLabelledApkBytes(join(dir, `app${n++}`), o);
const labelsOf = (apk: Uint8Array): Map<string, string> => {
  const file = join(dir, `badging${n++}.apk`);
  writeFileSync(file, apk);
  return badgingLabels(file);
};

const LOCALES = ['', 'en-US', 'de-DE', 'de-AT', 'fr-FR', 'fr-CA', 'ja-JP'];

describe('an app label read from APK ranges', () => {
  let dense: Uint8Array;
  let sparse: Uint8Array;
  beforeAll(() => {
    dense = linkApk();
    sparse = linkApk({ linkFlags: ['--enable-sparse-encoding'] });
  });

  it.each(['dense', 'sparse'])(
    'resolves a referenced label per locale as aapt does (%s entries)',
    async (kind) => {
      const apk = kind === 'dense' ? dense : sparse;
      const labels = labelsOf(apk);
      expect(labels.size).toBeGreaterThanOrEqual(4);
      for (const locale of LOCALES) {
        const { label } = await readApkLabel(bytesReader(apk), locale);
        expect(label, locale).toBe(expected(labels, locale));
      }
    },
  );

  it('reads a literal label without the resource table', async () => {
    const apk = linkApk({ label: 'Literal Label' });
    expect(labelsOf(apk).get('')).toBe('Literal Label');
    const reads: string[] = [];
    const inner = bytesReader(apk);
    const r = await readApkLabel(
      { tail: () => inner.tail(), range: async (o, n) => (reads.push(`${o}+${n}`), inner.range(o, n)) },
      'de-DE',
    );
    expect(r.label).toBe('Literal Label');
    expect(reads).toHaveLength(1); // the manifest only
  });

  it('reads the end, the manifest and the table — not the APK', async () => {
    // 3,000 assets: a central directory past the last 64 KiB, and 12 MB of data never read.
    const big = linkApk({ assets: { count: 3000, bytes: 4096 } });
    const entries = readZipEntries(big);
    expect(entries.length).toBeGreaterThan(3000);
    const reads: string[] = [];
    const inner = bytesReader(big);
    const r = await readApkLabel(
      {
        tail: async () => (reads.push('tail'), inner.tail()),
        range: async (o, n) => (reads.push(`range ${o}+${n}`), inner.range(o, n)),
      },
      'de-DE',
    );
    expect(r.label).toBe(expected(labelsOf(big), 'de-DE'));
    expect(reads).toHaveLength(4); // end, directory, manifest, table
    expect(r.bytesRead).toBeLessThan(big.length / 20);
  });

  it('refuses a damaged table with ApkFormatError, never a RangeError', async () => {
    const entries = readZipEntries(dense);
    const arsc = readZipEntryData(
      dense,
      entries.find((e) => e.name === 'resources.arsc')!,
    );
    const id = 0x7f010001; // string/launcher_name: the second string aapt2 assigns
    expect(new ResourceTable(arsc).string(id, '')).toBe('Price Book');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(arsc.length - 1), fc.nat(255)), { minLength: 1, maxLength: 8 }),
        fc.nat(arsc.length),
        (edits, cut) => {
          const bad = Uint8Array.from(arsc.subarray(0, Math.max(cut, 8)));
          for (const [at, v] of edits) {
            if (at < bad.length) {
              bad[at] = v;
            }
          }
          try {
            const s = new ResourceTable(bad).string(id, 'de-DE');
            expect(s === null || typeof s === 'string').toBe(true);
          } catch (err) {
            expect(err).toBeInstanceOf(ApkFormatError);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("Debian's framework-res.apk (31 MB table, 3,800 configurations)", () => {
  it('answers android:string/ok per locale as aapt dump --values resources lists it', () => {
    const apk = readFileSync(frameworkRes());
    const arsc = readZipEntryData(
      apk,
      readZipEntries(apk).find((e) => e.name === 'resources.arsc')!,
    );
    const table = new ResourceTable(arsc);
    // The configurations aapt prints for 0x0104000a, with the string each holds.
    const dump = execFileSync('aapt', ['dump', '--values', 'resources', frameworkRes()], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const byConfig = new Map<string, string>();
    let config = '';
    const lines = dump.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const c = /^ {6}config (.+):$/.exec(lines[i]!);
      if (c) {
        config = c[1] === '(default)' ? '' : c[1]!.replace('-r', '-');
      } else if (lines[i]!.includes('resource 0x0104000a android:string/ok:') && !byConfig.has(config)) {
        const s = /"(.*)"/.exec(lines[i + 1] ?? '');
        if (s) {
          byConfig.set(config, s[1]!);
        }
      }
    }
    expect(byConfig.size).toBeGreaterThan(50);
    for (const locale of ['en-US', 'de-DE', 'fr-CA', 'pt-BR', 'ja-JP', 'zh-CN', 'xx-YY']) {
      expect(table.string(0x0104000a, locale), locale).toBe(expected(byConfig, locale));
    }
  });
});
