import type { CommandContext, CommandFn } from '../../shell/command.js';
import { absPath } from '../../shell/command.js';
import { sleepFor } from '../../shell/builtins-misc.js';
import { errnoText } from '../fs.js';
import type { Device } from '../device.js';
import { hexId } from '../ids.js';
import { renderPng, renderRaw, screenSvg } from '../ui/screencap.js';
import { serializeHierarchy } from '../ui/uiautomator-xml.js';
import { since } from '../android-versions.js';

const UIAUTOMATOR_USAGE = `Usage: uiautomator <subcommand> [options]

Available subcommands:

help: displays help message

runtest: executes UI automation tests
    runtest <class spec> [options]
    <class spec>: <JARS> < -c <CLASSES> | -e class <CLASSES> >
      <JARS>: a list of jar files containing test classes and dependencies. If
        the path is relative, it's assumed to be under /data/local/tmp. Use
        absolute path if the file is elsewhere. Multiple files can be
        specified, separated by space.
      <CLASSES>: a list of test class names to run, separated by comma. To
        a single method, use TestClass#testMethod format. The -e or -c option
        may be repeated. This option is not required and if not provided then
        all the tests in provided jars will be run automatically.
    options:
      --nohup: trap SIG_HUP, so test won't terminate even if parent process
               is terminated, e.g. USB is disconnected.
      -e debug [true|false]: wait for debugger to connect before starting.
      -e runner [CLASS]: use specified test runner class instead. If
        unspecified, framework default runner will be used.
      -e <NAME> <VALUE>: other name-value pairs to be passed to test classes.
        May be repeated.
      -e outputFormat simple | -s: enabled less verbose JUnit style output.

dump: creates an XML dump of current UI hierarchy
    dump [--verbose][file]
      [--compressed]: dumps compressed layout information.
      [file]: the location where the dumped XML should be stored, default is
      /sdcard/window_dump.xml

events: prints out accessibility events until terminated
`;

/**
 * The exception a UiAutomation's connect throws when another client holds the device's one
 * accessibility connection (AOSP UiAutomationManager.registerUiTestAutomationServiceLocked: "already
 * registered!"), thrown through the binder into `caller`'s frames: uiautomator's DumpCommand, or a
 * test's Instrumentation.getUiAutomation.
 */
export function uiAutomationTaken(seed: string, caller: readonly string[]): string {
  return [
    `java.lang.IllegalStateException: UiAutomationService android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@${hexId(seed)}already registered!`,
    '\tat android.os.Parcel.createExceptionOrNull(Parcel.java:3011)',
    '\tat android.os.Parcel.createException(Parcel.java:2995)',
    '\tat android.os.Parcel.readException(Parcel.java:2978)',
    '\tat android.os.Parcel.readException(Parcel.java:2920)',
    '\tat android.app.IUiAutomationConnection$Stub$Proxy.connect(IUiAutomationConnection.java:323)',
    '\tat android.app.UiAutomation.connectWithTimeout(UiAutomation.java:337)',
    '\tat android.app.UiAutomation.connect(UiAutomation.java:289)',
    ...caller.map((f) => `\tat ${f}`),
    'Caused by: android.os.RemoteException: Remote stack trace:',
    '\tat com.android.server.accessibility.UiAutomationManager.registerUiTestAutomationServiceLocked(UiAutomationManager.java:108)',
    '\tat com.android.server.accessibility.AccessibilityManagerService.registerUiTestAutomationService(AccessibilityManagerService.java:1095)',
    '\tat android.view.accessibility.IAccessibilityManager$Stub.onTransact(IAccessibilityManager.java:1197)',
    '\tat android.os.Binder.execTransactInternal(Binder.java:1339)',
    '\tat android.os.Binder.execTransact(Binder.java:1275)',
    '',
  ].join('\n');
}

/** What uiautomator prints when another UiAutomation client holds the accessibility connection. */
function alreadyRegistered(seed: string): string {
  return uiAutomationTaken(seed, [
    'com.android.uiautomator.core.UiAutomationShellWrapper.connect(UiAutomationShellWrapper.java:57)',
    'com.android.commands.uiautomator.DumpCommand.run(DumpCommand.java:81)',
    'com.android.commands.uiautomator.Launcher.main(Launcher.java:83)',
    'com.android.internal.os.RuntimeInit.nativeFinishInit(Native Method)',
    'com.android.internal.os.RuntimeInit.main(RuntimeInit.java:359)',
  ]);
}

async function dump(ctx: CommandContext<Device>, args: string[]): Promise<number> {
  const dev = ctx.host;
  const compressed = args.includes('--compressed');
  const target = args.find((a) => !a.startsWith('--')) ?? '/sdcard/window_dump.xml';
  dev.stats.dumps++;
  // The helper's instrumentation holds the device's one UiAutomation connection while it runs.
  if (dev.dumpsRunning > 0 || dev.helper?.holdsUiAutomation === true) {
    dev.stats.overlappingDumps++;
    await ctx.stderr.write(alreadyRegistered(`${dev.identity.serial}/${dev.stats.dumps}`));
    return 1;
  }
  dev.dumpsRunning++;
  try {
    if (dev.neverIdle()) {
      // DumpCommand: waitForIdle times out, `ERROR: could not get idle state.` on stderr, exit 0.
      if (!(await sleepFor(dev.idleWaitMs, ctx.signal))) {
        return 130;
      }
      await ctx.stderr.write('ERROR: could not get idle state.\n');
      return 0;
    }
    if (!(await sleepFor(dev.dumpLatencyMs, ctx.signal))) {
      return 130;
    }
    if (!dev.ui.screenOn) {
      await ctx.stderr.write('ERROR: null root node returned by UiTestAutomationBridge.\n');
      return 0;
    }
    // A WebView in front shows its page's accessibility echo as the page is now.
    await dev.webviews.settle();
    const xml =
      dev.ui.loaded !== null
        ? dev.ui.loaded.xml
        : serializeHierarchy(dev.currentTree(), dev.display().rotation, compressed);
    if (target === '/dev/tty' || target === '/dev/stdout') {
      await ctx.stdout.write(xml);
    } else {
      try {
        ctx.fs.writeFile(absPath(ctx, target), new TextEncoder().encode(xml));
      } catch (err) {
        await ctx.stderr.write(`ERROR: could not write to ${target}: ${errnoText(err)}\n`);
        return 1;
      }
    }
    await ctx.stdout.write(`UI hierchary dumped to: ${target}\n`);
    return 0;
  } finally {
    dev.dumpsRunning--;
  }
}

/** `uiautomator dump [--compressed] [FILE|/dev/tty]` after the device's dump latency. */
export const uiautomator: CommandFn<Device> = async (ctx) => {
  const [sub, ...args] = ctx.argv.slice(1);
  if (sub === 'dump') {
    return dump(ctx, args);
  }
  if (sub === 'events') {
    await sleepFor(24 * 3600 * 1000, ctx.signal);
    return 0;
  }
  await ctx.stdout.write(UIAUTOMATOR_USAGE);
  return sub === undefined || sub === 'help' ? 0 : 1;
};

function clock(): string {
  const d = new Date();
  return `${d.getHours()}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** The SVG of what the device shows now, a WebView's page pictured by its engine. */
export async function currentSvg(dev: Device): Promise<string> {
  const d = dev.display();
  const overlay =
    dev.ui.loaded === null && !dev.ui.shadeOpen && dev.ui.dialog !== null
      ? (dev.ui.dialogTree(d.width, d.height, d.density) ?? undefined)
      : undefined;
  const base = overlay !== undefined ? dev.currentTreeBelowDialog() : dev.currentTree();
  const shown =
    dev.ui.loaded === null && dev.ui.screenOn ? await dev.webviews.picture(dev.topActivity()) : null;
  return screenSvg(base, {
    width: d.width,
    height: d.height,
    density: d.density,
    imeShown: dev.ui.imeShown && dev.ui.loaded === null,
    clock: clock(),
    overlay,
    night: dev.nightMode === 'yes',
    ...(shown !== null ? { pages: [shown] } : {}),
  });
}

/** `screencap [-p] [-d ID] [FILE]`: PNG (or raw RGBA with a header) of the simulated screen. */
export const screencap: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const args = ctx.argv.slice(1);
  let png = false;
  let file: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-p') {
      png = true;
    } else if (a === '-d') {
      i++;
    } else if (a === '-h') {
      await ctx.stderr.write(
        'usage: screencap [-hp] [-d display-id] [FILENAME]\n   -h: this message\n   -p: save the file as a png.\n   -d: specify the physical display ID to capture (default: 4619827259835644672)\n       see "dumpsys SurfaceFlinger --display-id" for valid display IDs.\nIf FILENAME ends with .png it will be saved as a png.\nIf FILENAME is not given, the results will be printed to stdout.\n',
      );
      return 0;
    } else if (!a.startsWith('-')) {
      file = a;
    }
  }
  if (file !== null && file.endsWith('.png')) {
    png = true;
  }
  const loaded = dev.ui.capture;
  let bytes: Uint8Array;
  if (png) {
    bytes = loaded !== null ? loaded.png : await renderPng(await currentSvg(dev));
  } else {
    const d = loaded ?? dev.display();
    const pixels = loaded !== null ? loaded.rgba : await renderRaw(await currentSvg(dev));
    // screencap.cpp: width, height, PIXEL_FORMAT_RGBA_8888 (1), and from Android 9 the dataspace.
    const headerSize = since(dev.sdk, 'screencapColorSpace') ? 16 : 12;
    bytes = new Uint8Array(headerSize + pixels.length);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, d.width, true);
    view.setUint32(4, d.height, true);
    view.setUint32(8, 1, true);
    bytes.set(pixels, headerSize);
  }
  if (file !== null) {
    try {
      ctx.fs.writeFile(absPath(ctx, file), bytes);
    } catch (err) {
      await ctx.stderr.write(`Error opening file: ${file} (${errnoText(err)})\n`);
      return 1;
    }
    return 0;
  }
  for (let at = 0; at < bytes.length; at += 64 * 1024) {
    await ctx.stdout.write(bytes.subarray(at, Math.min(bytes.length, at + 64 * 1024)));
  }
  return 0;
};
