import { describe, expect, it } from 'vitest';
import { SAMPLE_CRASH_RETRACED, SAMPLE_MAPPING } from '../sample-app.js';
import { SAMPLE_KOTLIN_SOURCES } from './kotlin-sources.js';

function sourceLine(fileName: string, line: number): string {
  const entry = Object.entries(SAMPLE_KOTLIN_SOURCES).find(([path]) => path.split('/').pop() === fileName);
  if (!entry) {
    throw new Error(`no source ${fileName}`);
  }
  return entry[1].split('\n')[line - 1] ?? '';
}

describe('sample sources and mapping agree', () => {
  it('every retraced frame of the sample crash points at the call or throw it names', () => {
    const expected: Record<string, string> = {
      'CartRepository.kt:25': 'throw IllegalStateException(',
      'HomeActivity.kt:63': 'cart.totalFor(user)',
      'HomeActivity.kt:58': 'checkoutTotal("demo")',
      'HomeActivity.kt:41': 'onCrashClicked()',
      'PriceBook.kt:17': 'throw PriceUnavailableException(',
      'CartRepository.kt:22': 'prices.priceOf(sku, quantity)',
    };
    const frames = SAMPLE_CRASH_RETRACED.flatMap((l) => /\((\w+\.kt:\d+)\)$/.exec(l)?.[1] ?? []);
    expect(frames.sort()).toEqual(Object.keys(expected).sort());
    for (const frame of frames) {
      const [file, line] = frame.split(':');
      expect(sourceLine(file!, Number(line)), frame).toContain(expected[frame]);
    }
  });

  it('every source file the mapping names exists, and every mapped method is declared in it', () => {
    let current: string | undefined;
    for (const line of SAMPLE_MAPPING.split('\n')) {
      if (/^[\w$.]+ -> [\w$.]+:$/.test(line)) {
        current = undefined; // a class line; synthesized classes have no Kotlin source
        continue;
      }
      const file = /"fileName":"(\w+\.kt)"/.exec(line)?.[1];
      if (file) {
        current = file;
        expect(Object.keys(SAMPLE_KOTLIN_SOURCES).some((p) => p.endsWith(`/${file}`) || p === file)).toBe(
          true,
        );
        continue;
      }
      const m = /^ {4}\d+:\d+:\S+ (?:([\w.]+)\.)?(\w+)\(/.exec(line);
      const method = m?.[2];
      if (method && current && !method.startsWith('<') && !method.includes('$')) {
        // A qualified method was inlined from another class: it is declared in that class's file.
        const file = m?.[1] ? `${m[1].split('.').pop()}.kt` : current;
        const text =
          Object.entries(SAMPLE_KOTLIN_SOURCES).find(([p]) => p.split('/').pop() === file)?.[1] ?? '';
        expect(text.includes(`fun ${method}(`), `${file}: ${method}`).toBe(true);
      }
    }
  });
});
