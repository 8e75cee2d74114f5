/**
 * Evidence: frameworks/base/cmds/am/src/com/android/commands/am/Instrument.java (`-w -r`, the
 * INSTRUMENTATION_ status lines), ActivityManagerService.startInstrumentation ("Unable to find
 * instrumentation info"); appium-uiautomator2-server's ServerInstrumentation.java for the helper.
 */
import type { CommandContext } from '../../shell/command.js';
import type { Device } from '../device.js';
import { SimHelperServer } from '../helper-server.js';
import { ensureProcess, forceStop } from '../lifecycle.js';
import { windowList } from './dumpsys-window.js';
import { runInstrumentedTests } from './instrument-tests.js';
import { currentSvg } from './ui-commands.js';
import { renderPng } from '../ui/screencap.js';
import { since } from '../android-versions.js';

/** The instrumentation the helper runs as (its test APK's manifest). */
const HELPER_SERVER_PACKAGE = 'io.appium.uiautomator2.server';

/**
 * `am instrument [-w] [-r] [-e KEY VALUE]… [--no-window-animation] [--user U] COMPONENT`. The
 * component must be an `<instrumentation>` of an installed package whose target is installed, else
 * the ActivityManager's "Unable to find instrumentation info" error. One instrumentation the
 * simulator runs is Appium's UiAutomator2 server: its process starts, the server answers on
 * tcp:6790 once it is up, and `-w` keeps the command until the server ends (force-stop, uninstall),
 * when it reports the process gone (`INSTRUMENTATION_RESULT: shortMsg=Process crashed.`). Any other
 * instrumentation is an app's test APK: instrument-tests.ts runs the tests it lists.
 */
export async function instrument(ctx: CommandContext<Device>, args: string[]): Promise<number> {
  const dev = ctx.host;
  let wait = false;
  let component: string | undefined;
  const extras = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-w') {
      wait = true;
    } else if (a === '-e') {
      extras.set(args[i + 1] ?? '', args[i + 2] ?? '');
      i += 2;
    } else if (a === '--user' || a === '-p' || a === '--abi') {
      i++;
    } else if (!a.startsWith('-')) {
      component = a;
    }
  }
  const [pkg, runner] = (component ?? '').split('/');
  const declared = dev.packages
    .get(pkg ?? '')
    ?.info.instrumentations?.find((x) => x.name === runner || `${pkg}${runner}` === x.name);
  if (component === undefined || declared === undefined || !dev.packages.has(declared.targetPackage)) {
    await ctx.stderr.write(
      `Error: Unable to find instrumentation info for: ComponentInfo{${component ?? ''}}\n`,
    );
    return 1;
  }
  // ActivityManagerService.startInstrumentation force-stops the target first (forceStopPackageLocked
  // with reason "start instr"): a running server or app process is replaced by a new one.
  forceStop(dev, declared.targetPackage, 0, 'start instr');
  if (declared.targetPackage !== HELPER_SERVER_PACKAGE) {
    // An app's own tests: the instrumentation runs in the target app's process.
    const { proc: app } = ensureProcess(dev, declared.targetPackage, 'instrumentation', component);
    const tests = dev.packages.get(pkg ?? '')!;
    return wait ? runInstrumentedTests(ctx, tests, args.includes('-r'), extras, app.pid) : 0;
  }
  const { proc } = ensureProcess(dev, HELPER_SERVER_PACKAGE, 'instrumentation', component);
  // AndroidJUnitRunner's printer names the test class as the test starts: InstrumentationResultPrinter
  // .testStarted puts String.format("\n%s:", testClass) in the status's "stream", which `am
  // instrument` (without -r) prints as it is.
  await ctx.stdout.write('\nio.appium.uiautomator2.server.test.AppiumUiAutomator2Server:');
  // The server listens only once the instrumentation is up (2.5–5.3 s in public Appium logs).
  if (dev.helperStartMs > 0) {
    await new Promise((r) => setTimeout(r, dev.helperStartMs));
  }
  // ServerInstrumentation.setAccessibilityServiceState: the flag is read on Android 7+ only.
  const keepServices =
    extras.get('DISABLE_SUPPRESS_ACCESSIBILITY_SERVICES') === 'true' &&
    since(dev.identity.sdk, 'dontSuppressAccessibility');
  const server = new SimHelperServer(
    dev,
    {
      windows: () => windowList(dev),
      screenshot: async () => renderPng(await currentSvg(dev)),
      // ActivityManagerService.finishInstrumentationLocked force-stops the target ("finished inst").
      finish: () => forceStop(dev, HELPER_SERVER_PACKAGE, 0, 'finished inst'),
    },
    { uid: proc.uid, pid: proc.pid },
    !keepServices,
  );
  dev.helper = server;
  if (!wait) {
    return 0;
  }
  await Promise.race([
    server.stopped,
    new Promise<void>((r) => ctx.signal.addEventListener('abort', () => r(), { once: true })),
  ]);
  if (ctx.signal.aborted) {
    // The shell went away: the instrumented process goes on, as on a device, but the UiAutomation
    // the `am` process lent it is gone with that process (helper-server.ts, uiAutomationLost).
    if (dev.helper === server) {
      server.loseUiAutomation();
    }
    return 130;
  }
  // The server's process died (force-stop): ActivityManagerService.handleAppDiedLocked finishes the
  // instrumentation with RESULT_CANCELED (0) and shortMsg "Process crashed.", which `am instrument`
  // prints as INSTRUMENTATION_RESULT / INSTRUMENTATION_CODE lines (test harnesses match this text,
  // e.g. scripts that grep am instrument's output for "Process crashed.").
  await ctx.stdout.write('\nINSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n');
  return 0;
}
