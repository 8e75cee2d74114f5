/**
 * `am instrument` of an app's test APK: AndroidJUnitRunner running the tests the APK's list names
 * (src/sim/test-apk.ts). Each passes, except one that connects a UiAutomation while the UiAutomator2
 * helper holds the device's only one: it fails with the "already registered!" IllegalStateException
 * a real phone throws from Instrumentation.getUiAutomation (ui-commands.ts, uiAutomationTaken).
 *
 * The output is `am instrument`'s (AOSP cmds/am Instrument.java): with `-r` (ddmlib's
 * RemoteAndroidTestRunner, so AGP, always passes it) each status bundle's keys sorted, one
 * `INSTRUMENTATION_STATUS: key=value` line each, then `INSTRUMENTATION_STATUS_CODE: n`, and at the end
 * `INSTRUMENTATION_RESULT: stream=…` and `INSTRUMENTATION_CODE: -1`; without it only the bundles'
 * `stream` texts. The bundles are androidx.test's InstrumentationResultPrinter's: class, current,
 * id=AndroidJUnitRunner, numtests, stream (`\n<class>:` when a class starts, `.` when a test passes,
 * `\nError in <method>(<class>):\n<trace>` when it fails), test, and stack on a failure; codes 1
 * (started), 0 (passed), -2 (failed). A real transcript of one passing test (a Capacitor app's CI run,
 * quoted in a public test suite) has exactly these lines; the final stream is JUnit's TextListener
 * text (`Time:`, the failures, `OK (n tests)` or `FAILURES!!!` and `Tests run: n,  Failures: m`).
 */
import type { CommandContext } from '../../shell/command.js';
import { simTestsOf, type SimTestCase } from '../../test-apk.js';
import type { Device } from '../device.js';
import type { InstalledPackage } from '../packages.js';
import { uiAutomationTaken } from './ui-commands.js';
import { javaHash, selectTests } from './runner-args.js';

/** The frames from a UI Automator test down to UiAutomation.connect (androidx.test.uiautomator's UiDevice). */
function failureTrace(dev: Device, t: SimTestCase): string {
  const simple = t.className.slice(t.className.lastIndexOf('.') + 1);
  return uiAutomationTaken(`${dev.identity.serial}/${t.className}.${t.method}`, [
    'android.app.Instrumentation.getUiAutomation(Instrumentation.java:2302)',
    'androidx.test.uiautomator.UiDevice.getUiAutomation(UiDevice.java:1137)',
    'androidx.test.uiautomator.UiDevice.<init>(UiDevice.java:113)',
    'androidx.test.uiautomator.UiDevice.getInstance(UiDevice.java:271)',
    `${t.className}.${t.method}(${simple}.kt)`,
  ]).trimEnd();
}

/** A 32-bit integer mixed so that near seeds land far apart (MurmurHash3's finalizer). */
function mix(x: number): number {
  let h = x ^ (x >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** How many times each test ran on each device (the race's seed: the same run, the same outcome). */
const runsOf = new WeakMap<Device, Map<string, number>>();

/** The screen's enter transition at the default scale, and how much longer it may run. */
const TRANSITION_MS = 250;
const TRANSITION_JITTER_MS = 60;

/**
 * A test that sleeps a fixed time and then checks a view races the screen's enter transition: the
 * transition runs TRANSITION_MS × the device's transition_animation_scale, plus up to
 * TRANSITION_JITTER_MS (a busy device's frames), seeded by the device's model, the test and how
 * often it ran there — so a fresh device gives the same outcomes in the same order. With animations
 * off the view is there at once. The failure is Espresso's NoMatchingViewException at the check.
 *
 * Evidence: Espresso's setup guide (developer.android.com/training/testing/espresso/setup: turn off
 * system animations on test devices, "to avoid flakiness"); the exception's text as Espresso prints
 * it (`No views in hierarchy found matching: view.getId() is <…/pkg:id/name>`).
 */
function racedTransition(dev: Device, t: SimTestCase): string | null {
  const wait = t.fixedWait;
  if (wait === undefined) {
    return null;
  }
  const key = `${t.className}#${t.method}`;
  const runs = runsOf.get(dev) ?? new Map<string, number>();
  runsOf.set(dev, runs);
  const run = (runs.get(key) ?? 0) + 1;
  runs.set(key, run);
  const scale = Number(dev.settings.get('global', 'transition_animation_scale') ?? '1');
  const jitter = mix(javaHash(`${dev.identity.model}:${key}:${run}`)) % TRANSITION_JITTER_MS;
  if ((Number.isFinite(scale) ? scale : 1) * TRANSITION_MS + (scale > 0 ? jitter : 0) <= wait.ms) {
    return null;
  }
  return [
    `androidx.test.espresso.NoMatchingViewException: No views in hierarchy found matching: view.getId() is <2131230995/${dev.topActivity().pkg}:id/welcome>`,
    '',
    'View Hierarchy:',
    `+>DecorView{id=-1, visibility=VISIBLE, width=${dev.display().width}, height=${dev.display().height}, has-focus=false}`,
    '	at dalvik.system.VMStack.getThreadStackTrace(Native Method)',
    '	at java.lang.Thread.getStackTrace(Thread.java:1841)',
    '	at androidx.test.espresso.base.EspressoExceptionHandler.handleSafely(EspressoExceptionHandler.java:2)',
    '	at androidx.test.espresso.ViewInteraction.check(ViewInteraction.java:16)',
    `	at ${t.className}.${t.method}(${wait.file}:${wait.line})`,
    '	at java.lang.reflect.Method.invoke(Native Method)',
    '	at androidx.test.runner.AndroidJUnitRunner.onStart(AndroidJUnitRunner.java:444)',
    '	at android.app.Instrumentation$InstrumentationThread.run(Instrumentation.java:2361)',
  ].join('\n');
}

/** Runs the test APK's tests; the command's exit code (0: the instrumentation finished). */
export async function runInstrumentedTests(
  ctx: CommandContext<Device>,
  testPackage: InstalledPackage,
  raw: boolean,
  args: ReadonlyMap<string, string>,
  pid: number,
): Promise<number> {
  const dev = ctx.host;
  const selected = selectTests(simTestsOf(testPackage.info.apkBytes), args);
  if ('error' in selected) {
    // The runner fails to build its request: the instrumentation ends with the exception.
    await ctx.stdout.write(
      raw
        ? `INSTRUMENTATION_RESULT: shortMsg=${selected.error}\nINSTRUMENTATION_CODE: 0\n`
        : `${selected.error}\n`,
    );
    return 0;
  }
  const tests = selected.tests;
  // androidx.test's LogRunListener: the run's and each test's start and end under the tag TestRunner.
  const log = (priority: 'I' | 'E', message: string): void =>
    dev.logLine(pid, priority, 'TestRunner', message);
  log('I', `run started: ${tests.length} test${tests.length === 1 ? '' : 's'}`);
  const started = Date.now();
  const print = (text: string): Promise<void> => ctx.stdout.write(text);
  const status = async (bundle: Record<string, string>, code: number): Promise<void> => {
    if (!raw) {
      await print(bundle['stream'] ?? '');
      return;
    }
    const lines = Object.keys(bundle)
      .sort()
      .map((k) => `INSTRUMENTATION_STATUS: ${k}=${bundle[k]}\n`);
    await print(`${lines.join('')}INSTRUMENTATION_STATUS_CODE: ${code}\n`);
  };
  const failures: { test: SimTestCase; trace: string }[] = [];
  let lastClass = '';
  for (const [i, t] of tests.entries()) {
    const base = {
      class: t.className,
      current: String(i + 1),
      id: 'AndroidJUnitRunner',
      numtests: String(tests.length),
      test: t.method,
    };
    const name = `${t.method}(${t.className})`;
    log('I', `started: ${name}`);
    await status({ ...base, stream: t.className === lastClass ? '' : `\n${t.className}:` }, 1);
    lastClass = t.className;
    const raced = racedTransition(dev, t);
    if (raced !== null || (t.usesUiAutomation && dev.helper?.holdsUiAutomation === true)) {
      const trace = raced ?? failureTrace(dev, t);
      failures.push({ test: t, trace });
      log('E', `failed: ${name}`);
      log('E', '----- begin exception -----');
      for (const line of trace.split('\n')) {
        log('E', line);
      }
      log('E', '----- end exception -----');
      await status(
        { ...base, stack: trace, stream: `\nError in ${t.method}(${t.className}):\n${trace}` },
        -2,
      );
    } else {
      await status({ ...base, stream: '.' }, 0);
    }
    log('I', `finished: ${name}`);
  }
  log(
    'I',
    `run finished: ${tests.length} test${tests.length === 1 ? '' : 's'}, ${failures.length} failed, 0 ignored`,
  );
  const seconds = String(Number(((Date.now() - started) / 1000).toFixed(3)));
  const summary =
    failures.length === 0
      ? `\nOK (${tests.length} test${tests.length === 1 ? '' : 's'})\n\n`
      : `${failures.length === 1 ? 'There was 1 failure:' : `There were ${failures.length} failures:`}\n${failures
          .map((f, i) => `${i + 1}) ${f.test.method}(${f.test.className})\n${f.trace}\n`)
          .join('')}\nFAILURES!!!\nTests run: ${tests.length},  Failures: ${failures.length}\n\n`;
  const stream = `\n\nTime: ${seconds}\n${summary}`;
  await print(raw ? `INSTRUMENTATION_RESULT: stream=${stream}\nINSTRUMENTATION_CODE: -1\n` : stream);
  return 0;
}
