/**
 * What the simulator knows of a test APK's tests. A real test APK carries its tests as dex code the
 * simulator cannot run; the sample project's Gradle stand-in (which compiles nothing) packs the list
 * it read from the project's androidTest sources into this entry instead, and `am instrument` on a
 * sim device runs that list: each test passes, unless it needs a UiAutomation while another client
 * holds the device's only one (commands/instrument-tests.ts).
 *
 * Evidence: none — the simulator's own stand-in for test dex it cannot run; what `am instrument`
 * prints of it cites Instrument.java (commands/instrument-tests.ts).
 */
import { readZipEntries, readZipEntryData } from '../util/apk-zip.js';

export const SIM_TESTS_ENTRY = 'assets/droidbus-sim/tests.json';

export interface SimTestCase {
  /** The test class, fully qualified. */
  className: string;
  method: string;
  /** The test connects a UiAutomation (UI Automator's UiDevice, `getUiAutomation()`). */
  usesUiAutomation: boolean;
  /**
   * The test sleeps a fixed time (`Thread.sleep(N)`) and then checks a view (`onView(…)`) instead
   * of waiting for it: the milliseconds, the file and the line of that check. It races the screen's
   * transition (commands/instrument-tests.ts).
   */
  fixedWait?: { ms: number; file: string; line: number };
}

/** The entry's bytes for a list of tests. */
export function encodeSimTests(tests: readonly SimTestCase[]): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(tests));
}

/** The tests a test APK's bytes carry; none when it has no such entry or it cannot be read. */
export function simTestsOf(apk: Uint8Array | null): SimTestCase[] {
  if (apk === null) {
    return [];
  }
  try {
    const entry = readZipEntries(apk).find((e) => e.name === SIM_TESTS_ENTRY);
    if (entry === undefined) {
      return [];
    }
    const list = JSON.parse(new TextDecoder().decode(readZipEntryData(apk, entry))) as unknown;
    return Array.isArray(list)
      ? list.filter(
          (t): t is SimTestCase =>
            typeof t === 'object' &&
            t !== null &&
            typeof (t as SimTestCase).className === 'string' &&
            typeof (t as SimTestCase).method === 'string' &&
            typeof (t as SimTestCase).usesUiAutomation === 'boolean',
        )
      : [];
  } catch {
    return [];
  }
}

/**
 * The tests in a Kotlin or Java test source, as the stand-in reads them: each `@Test` function of the
 * file's class, in order. A test connects a UiAutomation when its own text (from its `@Test` to the
 * next) or the class's members before the first test (a `UiDevice` field, a rule) use UiDevice or
 * getUiAutomation; imports do not count. A test that sleeps and then checks a view races the screen
 * (`fixedWait`), as Espresso's guide warns: it does not wait for animations.
 */
export function simTestsInSource(source: string, file = 'Test.kt'): SimTestCase[] {
  const pkg = /^\s*package\s+([\w.]+)/m.exec(source)?.[1];
  const cls = /\bclass\s+(\w+)/.exec(source)?.[1];
  if (cls === undefined) {
    return [];
  }
  const className = pkg === undefined ? cls : `${pkg}.${cls}`;
  const uses = (text: string): boolean =>
    /\bUiDevice\b|\bgetUiAutomation\b|\.uiAutomation\b/.test(text.replace(/^\s*import\s.*$/gm, ''));
  const parts = source.split(/(?=@Test\b)/);
  const shared = uses(parts[0] ?? '');
  let offset = 0;
  return parts.flatMap((part, i) => {
    const at = offset;
    offset += part.length;
    const method = /\b(?:fun|void)\s+(\w+)\s*\(/.exec(part)?.[1];
    if (i === 0 || method === undefined) {
      return [];
    }
    const sleep = /Thread\.sleep\((\d+)L?\)/.exec(part);
    const check = sleep === null ? -1 : part.indexOf('onView(', sleep.index);
    const fixedWait =
      sleep !== null && check >= 0
        ? { ms: Number(sleep[1]), file, line: source.slice(0, at + check).split('\n').length }
        : undefined;
    return [
      { className, method, usesUiAutomation: shared || uses(part), ...(fixedWait ? { fixedWait } : {}) },
    ];
  });
}
