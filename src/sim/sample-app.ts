/**
 * The built-in sample app: its identity, variants, the release build's R8 mapping, and the crashes a
 * simulated device logs for it. Plain data, shared by the device model (src/sim/device), the sample
 * project writer and its gradlew stand-in, and the tests of the retracer.
 */

export const SAMPLE_PACKAGE = 'com.droidbus.sample';
export const SAMPLE_VERSION_CODE = 42;
export const SAMPLE_VERSION_NAME = '1.4.2';
export const SAMPLE_MIN_SDK = 24;
export const SAMPLE_TARGET_SDK = 35;
export const SAMPLE_COMPILE_SDK = 35;
/** Gradle's root project name (settings.gradle.kts). */
export const SAMPLE_ROOT_PROJECT = 'droidbus-sample';

/** Activity class names, fully qualified; the first is the launcher. */
export const SAMPLE_ACTIVITIES = [
  `${SAMPLE_PACKAGE}.LoginActivity`,
  `${SAMPLE_PACKAGE}.HomeActivity`,
  `${SAMPLE_PACKAGE}.DetailActivity`,
  `${SAMPLE_PACKAGE}.WebActivity`,
] as const;
export const SAMPLE_LAUNCHER_ACTIVITY = SAMPLE_ACTIVITIES[0];

export type SampleFlavor = 'demo' | 'full';
export type SampleBuildType = 'debug' | 'release';

export interface SampleVariant {
  /** Gradle's variant name: flavor + capitalised build type (`demoDebug`). */
  name: string;
  flavor: SampleFlavor;
  buildType: SampleBuildType;
  applicationId: string;
  /** Release builds run R8 and write mapping.txt (= SAMPLE_MAPPING). */
  minified: boolean;
}

export const SAMPLE_FLAVORS: readonly SampleFlavor[] = ['demo', 'full'];
export const SAMPLE_BUILD_TYPES: readonly SampleBuildType[] = ['debug', 'release'];
/** applicationIdSuffix per flavor and per build type; AGP appends the flavor's first. */
export const SAMPLE_FLAVOR_SUFFIX: Readonly<Record<SampleFlavor, string>> = { demo: '.demo', full: '' };
export const SAMPLE_BUILD_TYPE_SUFFIX: Readonly<Record<SampleBuildType, string>> = {
  debug: '.debug',
  release: '',
};

/** The application id of one variant (`com.droidbus.sample.demo.debug`). */
export function sampleApplicationId(flavor: SampleFlavor, buildType: SampleBuildType): string {
  return SAMPLE_PACKAGE + SAMPLE_FLAVOR_SUFFIX[flavor] + SAMPLE_BUILD_TYPE_SUFFIX[buildType];
}

/** All four variants, flavor-major as Gradle lists them. */
export const SAMPLE_VARIANTS: readonly SampleVariant[] = SAMPLE_FLAVORS.flatMap((flavor) =>
  SAMPLE_BUILD_TYPES.map((buildType) => ({
    name: flavor + buildType[0]!.toUpperCase() + buildType.slice(1),
    flavor,
    buildType,
    applicationId: sampleApplicationId(flavor, buildType),
    minified: buildType === 'release',
  })),
);

/** SHA-256 of the mapping body (everything after the `# pg_map_hash` line), as R8 computes it. */
export const SAMPLE_MAP_HASH = '628898e719ff279eb88fb18466c792c2b353b96302092e387ec88fac2609053a';
/** R8's default map id: the first 7 hex digits of the map hash. */
export const SAMPLE_MAP_ID = SAMPLE_MAP_HASH.slice(0, 7);
/** The source-file name R8 gives every class, which the device prints in its stack frames. */
export const SAMPLE_MAP_SOURCE_FILE = `r8-map-id-${SAMPLE_MAP_ID}`;

const MAPPING_HEADER = [
  '# compiler: R8',
  '# compiler_version: 8.7.18',
  `# min_api: ${SAMPLE_MIN_SDK}`,
  '# common_typos_disable',
  '# {"id":"com.android.tools.r8.mapping","version":"2.2"}',
  `# pg_map_id: ${SAMPLE_MAP_ID}`,
  `# pg_map_hash: SHA-256 ${SAMPLE_MAP_HASH}`,
].join('\n');

/** The mapping body; SAMPLE_MAP_HASH is its sha256, so edit both together (a test checks). */
export const SAMPLE_MAPPING_BODY = `com.droidbus.sample.DetailActivity -> com.droidbus.sample.DetailActivity:
# {"id":"sourceFile","fileName":"DetailActivity.kt"}
    android.widget.TextView titleView -> a
    1:1:void <init>():9:9 -> <init>
    1:5:void onCreate(android.os.Bundle):14:18 -> onCreate
    1:3:void bindItem(java.lang.String):21:23 -> p
com.droidbus.sample.HomeActivity -> com.droidbus.sample.HomeActivity:
# {"id":"sourceFile","fileName":"HomeActivity.kt"}
    com.droidbus.sample.data.CartRepository cart -> a
    android.widget.TextView totalView -> b
    1:1:void <init>():18:18 -> <init>
    2:4:void <init>():20:22 -> <init>
    1:9:void onCreate(android.os.Bundle):27:35 -> onCreate
    10:12:void onCreate(android.os.Bundle):40:42 -> onCreate
    1:1:void onClick(android.view.View):45:45 -> onClick
    1:1:void openDetail(java.lang.String):49:49 -> p
    1:1:void onCrashClicked():57:57 -> q
    2:2:long checkoutTotal(java.lang.String):63:63 -> q
    2:2:void onCrashClicked():58 -> q
    3:4:void onCrashClicked():59:60 -> q
com.droidbus.sample.HomeActivity$$ExternalSyntheticLambda0 -> a.i:
# {"id":"sourceFile","fileName":"R8$$SyntheticClass"}
# {"id":"com.android.tools.r8.synthesized"}
    com.droidbus.sample.HomeActivity f$0 -> a
    # {"id":"com.android.tools.r8.synthesized"}
    java.util.List f$1 -> b
    # {"id":"com.android.tools.r8.synthesized"}
    void <init>(com.droidbus.sample.HomeActivity,java.util.List) -> <init>
    # {"id":"com.android.tools.r8.synthesized"}
    1:1:void com.droidbus.sample.HomeActivity.onCreate$lambda$0(com.droidbus.sample.HomeActivity,java.util.List,android.widget.AdapterView,android.view.View,int,long):33:33 -> onItemClick
    1:1:void onItemClick(android.widget.AdapterView,android.view.View,int,long):0 -> onItemClick
    # {"id":"com.android.tools.r8.synthesized"}
com.droidbus.sample.HomeActivity$$ExternalSyntheticLambda1 -> a.b:
# {"id":"sourceFile","fileName":"R8$$SyntheticClass"}
# {"id":"com.android.tools.r8.synthesized"}
    com.droidbus.sample.HomeActivity f$0 -> a
    # {"id":"com.android.tools.r8.synthesized"}
    void <init>(com.droidbus.sample.HomeActivity) -> <init>
    # {"id":"com.android.tools.r8.synthesized"}
    1:1:void com.droidbus.sample.HomeActivity.onCreate$lambda$1(com.droidbus.sample.HomeActivity,android.view.View):41:41 -> onClick
    1:1:void onClick(android.view.View):0 -> onClick
    # {"id":"com.android.tools.r8.synthesized"}
com.droidbus.sample.LoginActivity -> com.droidbus.sample.LoginActivity:
# {"id":"sourceFile","fileName":"LoginActivity.kt"}
    android.widget.EditText emailField -> a
    android.widget.EditText passwordField -> b
    1:1:void <init>():11:11 -> <init>
    1:6:void onCreate(android.os.Bundle):17:22 -> onCreate
    1:2:void onBackPressed():35:36 -> onBackPressed
    1:1:void submit():25:25 -> p
    2:2:boolean com.droidbus.sample.util.Validators.isValidEmail(java.lang.String):10:10 -> p
    2:2:void submit():26 -> p
    3:4:void submit():27:28 -> p
    5:6:void submit():30:31 -> p
com.droidbus.sample.LoginActivity$$ExternalSyntheticLambda0 -> a.e:
# {"id":"sourceFile","fileName":"R8$$SyntheticClass"}
# {"id":"com.android.tools.r8.synthesized"}
    com.droidbus.sample.LoginActivity f$0 -> a
    # {"id":"com.android.tools.r8.synthesized"}
    void <init>(com.droidbus.sample.LoginActivity) -> <init>
    # {"id":"com.android.tools.r8.synthesized"}
    1:1:void com.droidbus.sample.LoginActivity.onCreate$lambda$0(com.droidbus.sample.LoginActivity,android.view.View):21:21 -> onClick
    1:1:void onClick(android.view.View):0 -> onClick
    # {"id":"com.android.tools.r8.synthesized"}
com.droidbus.sample.NativeBridge -> com.droidbus.sample.NativeBridge:
# {"id":"sourceFile","fileName":"NativeBridge.kt"}
    com.droidbus.sample.NativeBridge INSTANCE -> INSTANCE
    1:1:void <clinit>():6:6 -> <clinit>
    void crash() -> crash
com.droidbus.sample.data.CartRepository -> a.a:
# {"id":"sourceFile","fileName":"CartRepository.kt"}
    com.droidbus.sample.data.PriceBook prices -> a
    java.util.List items -> b
    1:1:void <init>(com.droidbus.sample.data.PriceBook):4:4 -> <init>
    2:2:void <init>(com.droidbus.sample.data.PriceBook):6:6 -> <init>
    1:3:void addItem(java.lang.String,int):10:12 -> a
    1:4:long totalFor(java.lang.String):19:22 -> b
    5:8:long totalFor(java.lang.String):24:27 -> b
com.droidbus.sample.data.PriceBook -> a.c:
# {"id":"sourceFile","fileName":"PriceBook.kt"}
    java.util.Map prices -> a
    1:1:void <init>():4:4 -> <init>
    2:2:void <init>():6:6 -> <init>
    1:1:long priceOf(java.lang.String):10:10 -> a
    2:6:long priceOf(java.lang.String,int):15:19 -> a
com.droidbus.sample.data.PriceUnavailableException -> a.d:
# {"id":"sourceFile","fileName":"PriceUnavailableException.kt"}
    1:1:void <init>(java.lang.String):4:4 -> <init>
com.droidbus.sample.util.Validators -> a.h:
# {"id":"sourceFile","fileName":"Validators.kt"}
    kotlin.text.Regex EMAIL -> a
    1:1:void <clinit>():6:6 -> <clinit>
`;

/** mapping.txt of the release variants (both flavors compile the same code). */
export const SAMPLE_MAPPING = `${MAPPING_HEADER}\n${SAMPLE_MAPPING_BODY}`;

const F = SAMPLE_MAP_SOURCE_FILE;
const FRAMEWORK_FRAMES = [
  '\tat android.view.View.performClick(View.java:7659)',
  '\tat android.view.View.performClickInternal(View.java:7636)',
  '\tat android.view.View.-$$Nest$mperformClickInternal(Unknown Source:0)',
  '\tat android.view.View$PerformClick.run(View.java:30156)',
  '\tat android.os.Handler.handleCallback(Handler.java:958)',
  '\tat android.os.Handler.dispatchMessage(Handler.java:99)',
  '\tat android.os.Looper.loopOnce(Looper.java:205)',
  '\tat android.os.Looper.loop(Looper.java:294)',
  '\tat android.app.ActivityThread.main(ActivityThread.java:8177)',
  '\tat java.lang.reflect.Method.invoke(Native Method)',
  '\tat com.android.internal.os.RuntimeInit$MethodAndArgsCaller.run(RuntimeInit.java:552)',
  '\tat com.android.internal.os.ZygoteInit.main(ZygoteInit.java:971)',
];

/**
 * The obfuscated trace of the sample app's Java crash (the "Crash" button on HomeActivity), as the
 * message lines of AndroidRuntime after `FATAL EXCEPTION: main` and `Process: …`.
 */
export const SAMPLE_CRASH_TRACE: readonly string[] = [
  'java.lang.IllegalStateException: Could not compute the cart total for demo',
  `\tat a.a.b(${F}:6)`,
  `\tat com.droidbus.sample.HomeActivity.q(${F}:2)`,
  `\tat a.b.onClick(${F}:1)`,
  ...FRAMEWORK_FRAMES,
  'Caused by: a.d: No price for sku DEMO-42',
  `\tat a.c.a(${F}:4)`,
  `\tat a.a.b(${F}:4)`,
  '\t... 14 more',
];

/**
 * The same crash in a debug (not minified) build: D8 keeps every class, method and line, so the
 * device prints the app's own frames. Kotlin lambdas desugared by D8 add two synthetic frames,
 * `$r8$lambda$…(Unknown Source:0)` and `…$$ExternalSyntheticLambda0.onClick(D8$$SyntheticClass:0)`,
 * as real debug-build crashes print them (e.g. `SetAdapter.onBindViewHolder$lambda$1(SetAdapter.kt:55)`,
 * `SetAdapter.$r8$lambda$iJJTleNzHBD5dvjL8WgtyHr9f-w(Unknown Source:0)`,
 * `SetAdapter$$ExternalSyntheticLambda0.onClick(D8$$SyntheticClass:0)` in a public crash report,
 * stored file 35975026408 of the research index); the cause shares 17 frames with the enclosing trace.
 */
export const SAMPLE_DEBUG_CRASH_TRACE: readonly string[] = [
  'java.lang.IllegalStateException: Could not compute the cart total for demo',
  '\tat com.droidbus.sample.data.CartRepository.totalFor(CartRepository.kt:25)',
  '\tat com.droidbus.sample.HomeActivity.checkoutTotal(HomeActivity.kt:63)',
  '\tat com.droidbus.sample.HomeActivity.onCrashClicked(HomeActivity.kt:58)',
  '\tat com.droidbus.sample.HomeActivity.onCreate$lambda$1(HomeActivity.kt:41)',
  '\tat com.droidbus.sample.HomeActivity.$r8$lambda$Yq3RkmWc5GQfJcK2n0a8LxZt1Vs(Unknown Source:0)',
  '\tat com.droidbus.sample.HomeActivity$$ExternalSyntheticLambda0.onClick(D8$$SyntheticClass:0)',
  ...FRAMEWORK_FRAMES,
  'Caused by: com.droidbus.sample.data.PriceUnavailableException: No price for sku DEMO-42',
  '\tat com.droidbus.sample.data.PriceBook.priceOf(PriceBook.kt:17)',
  '\tat com.droidbus.sample.data.CartRepository.totalFor(CartRepository.kt:22)',
  '\t... 17 more',
];

/**
 * The compiler marker R8 or D8 writes into classes.dex's string pool, as real APKs carry it
 * (`~~R8{"backend":"dex","compilation-mode":"release",…,"pg-map-id":"…","r8-mode":"full",…}`;
 * D8's `~~D8{…"compilation-mode":"debug"…}`): the device-side sign of a minified build.
 */
export function sampleDexMarker(minified: boolean, minSdk: number): string {
  return minified
    ? `~~R8{"backend":"dex","compilation-mode":"release","has-checksums":false,"min-api":${minSdk},"pg-map-id":"${SAMPLE_MAP_ID}","r8-mode":"full","version":"8.5.35"}`
    : `~~D8{"backend":"dex","compilation-mode":"debug","has-checksums":false,"min-api":${minSdk},"version":"8.5.35"}`;
}

/** True for a dex marker of a minified (R8) build. */
export function isMinifiedDexMarker(marker: string | null): boolean {
  return marker?.startsWith('~~R8{') ?? false;
}

/**
 * What R8's `retrace` prints for SAMPLE_CRASH_TRACE with SAMPLE_MAPPING (default, non-verbose):
 * the inline group of HomeActivity.q expands to two frames, the synthesized lambda frame
 * `onClick` is dropped in favour of the lambda body, `a.c.a` is resolved among the two `a`
 * overloads by its line, and the obfuscated exception class of the cause is renamed.
 */
export const SAMPLE_CRASH_RETRACED: readonly string[] = [
  'java.lang.IllegalStateException: Could not compute the cart total for demo',
  '\tat com.droidbus.sample.data.CartRepository.totalFor(CartRepository.kt:25)',
  '\tat com.droidbus.sample.HomeActivity.checkoutTotal(HomeActivity.kt:63)',
  '\tat com.droidbus.sample.HomeActivity.onCrashClicked(HomeActivity.kt:58)',
  '\tat com.droidbus.sample.HomeActivity.onCreate$lambda$1(HomeActivity.kt:41)',
  ...FRAMEWORK_FRAMES,
  'Caused by: com.droidbus.sample.data.PriceUnavailableException: No price for sku DEMO-42',
  '\tat com.droidbus.sample.data.PriceBook.priceOf(PriceBook.kt:17)',
  '\tat com.droidbus.sample.data.CartRepository.totalFor(CartRepository.kt:22)',
  '\t... 14 more',
];

/**
 * The AndroidRuntime message lines of the Java crash, each one logcat entry (tag AndroidRuntime,
 * priority E): `FATAL EXCEPTION: main`, `Process: PKG, PID: N`, then SAMPLE_CRASH_TRACE.
 */
export function sampleJavaCrashLines(
  pid: number,
  packageName: string = SAMPLE_PACKAGE,
  minified = true,
): string[] {
  return [
    'FATAL EXCEPTION: main',
    `Process: ${packageName}, PID: ${pid}`,
    ...(minified ? SAMPLE_CRASH_TRACE : SAMPLE_DEBUG_CRASH_TRACE),
  ];
}

/** The monitor the sample app's ANR is about: the cart, locked by a sync thread while it sleeps. */
export const SAMPLE_ANR_MONITOR = '0x0b1c5e27';
/** The tid ART gives the sample app's sync thread in its ANR dump. */
export const SAMPLE_ANR_HOLDER_TID = 18;

/**
 * The sample app's ANR as ART dumps its threads (the format of the real dumps in
 * tests/fixtures/anr): the main thread Blocked in the cart total, waiting to lock the cart that
 * the "CartSync" thread holds while it sleeps in the price book. Obfuscated as the release build
 * runs (the mapping above retraces every app frame), or with real names for a debug build.
 */
export function sampleAnrThreadDump(pid: number, minified = true): string[] {
  const F = SAMPLE_MAP_SOURCE_FILE;
  const [cart, home, click, prices] = minified
    ? ['a.a', 'com.droidbus.sample.HomeActivity', 'a.b', 'a.c']
    : [
        'com.droidbus.sample.data.CartRepository',
        'com.droidbus.sample.HomeActivity',
        'com.droidbus.sample.HomeActivity$$ExternalSyntheticLambda1',
        'com.droidbus.sample.data.PriceBook',
      ];
  const at = (cls: string, method: string, file: string, line: number, min: number): string =>
    `  at ${cls}.${method}(${minified ? `${F}:${min}` : `${file}:${line}`})`;
  return [
    '"main" prio=5 tid=1 Blocked',
    `  | group="main" sCount=1 ucsCount=0 flags=1 obj=0x72b35c20 self=0xb400007a2c8d7380`,
    `  | sysTid=${pid} nice=-10 cgrp=top-app sched=0/0 handle=0x7b8e4a14f8`,
    '  | state=S schedstat=( 1245102394 80412770 1830 ) utm=98 stm=26 core=3 HZ=100',
    '  | stack=0x7ffd1c3000-0x7ffd1c5000 stackSize=8188KB',
    '  | held mutexes=',
    at(cart, minified ? 'b' : 'totalFor', 'CartRepository.kt', 19, 1),
    `  - waiting to lock <${SAMPLE_ANR_MONITOR}> (a ${cart}) held by thread ${SAMPLE_ANR_HOLDER_TID}`,
    at(home, minified ? 'q' : 'checkoutTotal', 'HomeActivity.kt', 63, 2),
    at(click, 'onClick', 'HomeActivity.kt', 41, 1),
    '  at android.view.View.performClick(View.java:7659)',
    '  at android.view.View.performClickInternal(View.java:7636)',
    '  at android.view.View$PerformClick.run(View.java:30156)',
    '  at android.os.Handler.handleCallback(Handler.java:958)',
    '  at android.os.Handler.dispatchMessage(Handler.java:99)',
    '  at android.os.Looper.loopOnce(Looper.java:205)',
    '  at android.os.Looper.loop(Looper.java:294)',
    '  at android.app.ActivityThread.main(ActivityThread.java:8177)',
    '  at java.lang.reflect.Method.invoke(Native method)',
    '  at com.android.internal.os.RuntimeInit$MethodAndArgsCaller.run(RuntimeInit.java:552)',
    '  at com.android.internal.os.ZygoteInit.main(ZygoteInit.java:971)',
    '',
    `"CartSync" prio=5 tid=${SAMPLE_ANR_HOLDER_TID} Sleeping`,
    '  | group="main" sCount=1 ucsCount=0 flags=1 obj=0x13a80f58 self=0xb400007a2c8e9c00',
    `  | sysTid=${pid + 21} nice=0 cgrp=top-app sched=0/0 handle=0x7a1f3fccb0`,
    '  | state=S schedstat=( 2120417 1309875 9 ) utm=0 stm=0 core=1 HZ=100',
    '  | stack=0x7a1f2f9000-0x7a1f2fb000 stackSize=1039KB',
    '  | held mutexes=',
    '  at java.lang.Thread.sleep(Native method)',
    '  at java.lang.Thread.sleep(Thread.java:450)',
    '  at java.lang.Thread.sleep(Thread.java:355)',
    at(prices, minified ? 'a' : 'priceOf', 'PriceBook.kt', 15, 2),
    `  - locked <${SAMPLE_ANR_MONITOR}> (a ${cart})`,
    at(cart, minified ? 'b' : 'totalFor', 'CartRepository.kt', 24, 5),
    '  at java.lang.Thread.run(Thread.java:1012)',
  ];
}

export const SAMPLE_NATIVE_LIBRARY = 'libsample-native.so';
export const SAMPLE_NATIVE_BUILD_ID = '8c2f4e6a1b3d5f7092a4c6e8b0d2f4a6c8e0b2d4';
const ART_BUILD_ID = 'b5a3f3c2f1b0e7a6d9c8b7a6f5e4d3c2';

/** The native frames of the sample app's native crash, innermost first: [pc, library, symbol+offset]. */
export const SAMPLE_NATIVE_FRAMES: readonly (readonly [string, string, string])[] = [
  ['0000000000001a2c', SAMPLE_NATIVE_LIBRARY, 'sample_crash_now+12'],
  ['0000000000001b10', SAMPLE_NATIVE_LIBRARY, 'Java_com_droidbus_sample_NativeBridge_crash+20'],
  ['0000000000355630', 'libart.so', 'art_quick_generic_jni_trampoline+144'],
  ['000000000033ec74', 'libart.so', 'art_quick_invoke_stub+612'],
];

export interface SampleNativeCrashParams {
  pid: number;
  tid?: number;
  uid?: number;
  packageName?: string;
  /** The installed APK's directory (`/data/app/~~…==/com.droidbus.sample-…==`). */
  apkDir: string;
  /** ro.build.fingerprint of the device. */
  fingerprint: string;
  abi?: 'arm64' | 'x86_64';
  /** As crash_dump prints it: `2024-05-14 10:21:33.123456789+0000`. */
  timestamp: string;
}

/** The tombstone lines crash_dump logs (tag DEBUG, priority F) for the sample app's native crash. */
export function sampleNativeCrashLines(p: SampleNativeCrashParams): string[] {
  const pkg = p.packageName ?? SAMPLE_PACKAGE;
  const abi = p.abi ?? 'arm64';
  const lib = abi === 'arm64' ? 'lib/arm64' : 'lib/x86_64';
  const art = '/apex/com.android.art/lib64/libart.so';
  const frames = SAMPLE_NATIVE_FRAMES.map(([pc, library, symbol], i) => {
    const path = library === SAMPLE_NATIVE_LIBRARY ? `${p.apkDir}/${lib}/${library}` : art;
    const buildId = library === SAMPLE_NATIVE_LIBRARY ? SAMPLE_NATIVE_BUILD_ID : ART_BUILD_ID;
    return `      #${String(i).padStart(2, '0')} pc ${pc}  ${path} (${symbol}) (BuildId: ${buildId})`;
  });
  return [
    '*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***',
    `Build fingerprint: '${p.fingerprint}'`,
    "Revision: '0'",
    `ABI: '${abi}'`,
    `Timestamp: ${p.timestamp}`,
    'Process uptime: 14s',
    `Cmdline: ${pkg}`,
    `pid: ${p.pid}, tid: ${p.tid ?? p.pid}, name: ${pkg.slice(-15)}  >>> ${pkg} <<<`,
    `uid: ${p.uid ?? 10190}`,
    'signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0000000000000000',
    'Cause: null pointer dereference',
    '    x0  0000000000000000  x1  0000007fd2c1e6bc  x2  0000000000000000  x3  0000000000000001',
    '    lr  0000007b1e401b14  sp  0000007fd2c1e5f0  pc  0000007b1e401a2c  pst 0000000060001000',
    `${SAMPLE_NATIVE_FRAMES.length} total frames`,
    'backtrace:',
    ...frames,
  ];
}

/**
 * The page the sample's WebActivity shows from its APK (`assets/web/sign-in.html`): a web sign-in
 * form as hybrid apps have them, which logs to the console and can throw.
 */
export const SAMPLE_WEB_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in (web)</title>
<style>
  body { font-family: sans-serif; margin: 16px; }
  label { display: block; margin-top: 12px; }
  input { display: block; width: 100%; font-size: 18px; padding: 8px; box-sizing: border-box; }
  button { margin-top: 16px; width: 100%; font-size: 18px; padding: 10px; }
</style>
</head>
<body>
<h1>Sign in</h1>
<p id="intro">Use your Droidbus account.</p>
<form id="login" novalidate>
  <label for="email">Email</label>
  <input id="email" name="email" type="email" placeholder="you@example.com" autocomplete="username">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password">
  <button id="submit" type="submit">Continue</button>
</form>
<p id="status" role="status"></p>
<a href="#help" id="help">Forgot your password?</a>
<script>
  document.getElementById('login').addEventListener('submit', (event) => {
    event.preventDefault();
    const email = document.getElementById('email').value;
    const status = document.getElementById('status');
    if (!email.includes('@')) {
      console.error('sign-in refused: not an email address: ' + email);
      status.textContent = 'Enter a valid email address';
      return;
    }
    status.textContent = 'Signed in as ' + email;
  });
  document.getElementById('help').addEventListener('click', () => {
    throw new TypeError('help is not available offline');
  });
</script>
</body>
</html>
`;
