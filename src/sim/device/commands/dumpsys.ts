import { dumpAccessibility, wakeLockSection } from '../power-a11y.js';
import type { CommandFn } from '../../shell/command.js';
import type { Device, SimNotification } from '../device.js';
import { hexId } from '../ids.js';
import { dumpPackages } from './dumpsys-package.js';
import {
  dumpActivities,
  dumpActivityTop,
  dumpDisplays,
  dumpInputMethod,
  dumpProcesses,
  dumpWindowPolicy,
  dumpWindows,
} from './dumpsys-window.js';
import { since } from '../android-versions.js';

const SERVICES = [
  'accessibility',
  'activity',
  'battery',
  'connectivity',
  'display',
  'dropbox',
  'gfxinfo',
  'input',
  'input_method',
  'location',
  'meminfo',
  'notification',
  'package',
  'power',
  'window',
  'wifi',
];

function battery(): string {
  return `Current Battery Service state:
  AC powered: false
  USB powered: true
  Wireless powered: false
  Dock powered: false
  Max charging current: 500000
  Max charging voltage: 5000000
  Charge counter: 4120000
  status: 2
  health: 2
  present: true
  level: 100
  scale: 100
  voltage: 4350
  temperature: 250
  technology: Li-ion
`;
}

/** `dumpsys meminfo PKG` in Android 12+'s layout, scaled by a per-process factor. */
function meminfo(dev: Device, target: string | undefined): string {
  const proc =
    target === undefined
      ? undefined
      : /^\d+$/.test(target)
        ? dev.procs.byPid(Number(target))
        : dev.procs.forPackage(target);
  if (target === undefined) {
    const up = dev.uptimeMs();
    return `Applications Memory Usage (in Kilobytes):\nUptime: ${up} Realtime: ${up}\n\nTotal RAM: 7,823,148K (status normal)\n Free RAM: 3,912,004K\n`;
  }
  if (proc === undefined) {
    return `No process found for: ${target}\n`;
  }
  const k = 1 + (proc.pid % 17) / 100;
  const n = (v: number): string => String(Math.round(v * k));
  const row = (name: string, ...cols: (number | null)[]): string =>
    name.padStart(13) + cols.map((c) => (c === null ? ' '.repeat(9) : n(c).padStart(9))).join('');
  const uptime = dev.uptimeMs();
  return (
    [
      'Applications Memory Usage (in Kilobytes):',
      `Uptime: ${uptime} Realtime: ${uptime}`,
      '',
      `** MEMINFO in pid ${proc.pid} [${proc.name}] **`,
      '                   Pss  Private  Private  SwapPss      Rss     Heap     Heap     Heap',
      '                 Total    Dirty    Clean    Dirty    Total     Size    Alloc     Free',
      '                ------   ------   ------   ------   ------   ------   ------   ------',
      row('Native Heap', 10468, 10408, 0, 0, 12732, 18432, 14508, 3923),
      row('Dalvik Heap', 3211, 3156, 0, 0, 9824, 6144, 3072, 3072),
      row('Dalvik Other', 1524, 1244, 0, 0, 2788, null, null, null),
      row('Stack', 668, 668, 0, 0, 676, null, null, null),
      row('Ashmem', 15, 0, 0, 0, 900, null, null, null),
      row('Gfx dev', 2084, 2084, 0, 0, 2084, null, null, null),
      row('Other dev', 50, 0, 48, 0, 428, null, null, null),
      row('.so mmap', 6126, 276, 3452, 0, 35992, null, null, null),
      row('.jar mmap', 1839, 0, 276, 0, 29612, null, null, null),
      row('.apk mmap', 286, 0, 0, 0, 1504, null, null, null),
      row('.dex mmap', 1940, 16, 1920, 0, 2468, null, null, null),
      row('.oat mmap', 86, 0, 0, 0, 2780, null, null, null),
      row('.art mmap', 4224, 3840, 0, 0, 18772, null, null, null),
      row('Other mmap', 66, 12, 0, 0, 1080, null, null, null),
      row('Unknown', 484, 480, 0, 0, 824, null, null, null),
      row('TOTAL', 33071, 22184, 5696, 0, 122864, 24576, 17580, 6995),
      ' ',
      ' App Summary',
      '                       Pss(KB)                        Rss(KB)',
      '                        ------                         ------',
      `           Java Heap:${n(6996).padStart(9)}                      ${n(28596).padStart(9)}`,
      `         Native Heap:${n(10408).padStart(9)}                      ${n(12732).padStart(9)}`,
      `                Code:${n(5940).padStart(9)}                      ${n(72356).padStart(9)}`,
      `               Stack:${n(668).padStart(9)}                      ${n(676).padStart(9)}`,
      `            Graphics:${n(2084).padStart(9)}                      ${n(2084).padStart(9)}`,
      `       Private Other:${n(1784).padStart(9)}`,
      `              System:${n(5191).padStart(9)}`,
      `             Unknown:                               ${n(6420).padStart(9)}`,
      ' ',
      `           TOTAL PSS:${n(33071).padStart(9)}            TOTAL RSS:${n(122864).padStart(9)}       TOTAL SWAP PSS:        0`,
      ' ',
      ' Objects',
      '               Views:       47         ViewRootImpl:        1',
      '         AppContexts:        6           Activities:        1',
      '              Assets:       22        AssetManagers:        0',
      '       Local Binders:       14        Proxy Binders:       37',
      '       Parcel memory:        6         Parcel count:       24',
      '    Death Recipients:        1             WebViews:        0',
      ' ',
      ' SQL',
      '         MEMORY_USED:        0',
      '  PAGECACHE_OVERFLOW:        0          MALLOC_SIZE:        0',
      ' ',
    ].join('\n') + '\n'
  );
}

function notificationRecord(n: SimNotification, redact: boolean): string[] {
  const key = `0|${n.pkg}|${n.id}|${n.tag ?? 'null'}|${n.uid}`;
  const flags = (n.ongoing ? 0x2 | 0x20 : 0) | 0x10;
  const text = (v: string | null): string =>
    v === null ? 'null' : redact ? `String [length=${v.length}]` : `String (${v})`;
  const lines = [
    `    NotificationRecord(0x${hexId(key).padStart(8, '0')}: pkg=${n.pkg} user=UserHandle{0} id=${n.id} tag=${n.tag ?? 'null'} importance=${n.importance} key=${key}: Notification(channel=${n.channel} shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x${flags.toString(16)} color=0x00000000 vis=PRIVATE))`,
    `      uid=${n.uid} userId=0`,
    `      opPkg=${n.pkg}`,
    `      icon=Icon(typ=RESOURCE pkg=${n.pkg} id=0x7f080001)`,
    `      flags=0x${flags.toString(16)}`,
    `      originalFlags=0x${flags.toString(16)}`,
    '      pri=0',
    `      key=${key}`,
    '      seen=false',
    `      groupKey=${key}`,
    '      notification=',
    '          fullscreenIntent=null',
    `          contentIntent=PendingIntent{${hexId(key + 'pi')}: android.os.BinderProxy@${hexId(key + 'b')}}`,
    '          deleteIntent=null',
    '          number=0',
    '          groupAlertBehavior=0',
    `          when=${n.when}`,
    `          tickerText=${redact ? (n.title.length > 16 ? n.title.slice(0, 8) : '') + '...' : n.title}`,
    '          vis=0',
    '          contentView=null',
    '          bigContentView=null',
    '          headsUpContentView=null',
    '          color=0x00000000',
    '          timeout=0',
  ];
  if (n.actions.length > 0) {
    lines.push('          actions={');
    n.actions.forEach((a, i) =>
      lines.push(
        `              [${i}] "${a}" -> PendingIntent{${hexId(key + a)}: android.os.BinderProxy@${hexId(a)}}`,
      ),
    );
    lines.push('            }');
  }
  lines.push(
    '          extras={',
    `              android.title=${text(n.title)}`,
    `              android.text=${text(n.text)}`,
    `              android.subText=${n.subText === null ? 'null' : text(n.subText)}`,
    '              android.showWhen=Boolean (true)',
    `              android.template=String (android.app.Notification$BigTextStyle)`,
    '          }',
    `      stats=SingleNotificationStats{posttimeElapsedMs=${n.when % 100000000}, posttimeToFirstClickMs=-1, posttimeToDismissMs=-1, airtimeCount=0, airtimeMs=0, currentAirtimeStartElapsedMs=-1, airtimeExpandedMs=0, posttimeToFirstVisibleExpansionMs=-1, currentAirtimeExpandedStartElapsedMs=-1, requestedImportance=${n.importance}, naturalImportance=${n.importance}, isNoisy=false}`,
    '      mContactAffinity=0.0',
    '      mRecentlyIntrusive=false',
    `      mImportance=${['NONE', 'MIN', 'LOW', 'DEFAULT', 'HIGH', 'MAX'][n.importance] ?? 'DEFAULT'}`,
    `      effectiveNotificationChannel=NotificationChannel{mId='${n.channel}', mName=${n.channel}, mImportance=${n.importance}}`,
  );
  return lines;
}

function notifications(dev: Device, redact: boolean): string {
  const lines = ['Current Notification Manager state:', '  Notification List:'];
  for (const n of [...dev.notifications].reverse()) {
    lines.push(...notificationRecord(n, redact));
  }
  lines.push(
    '',
    '  mSoundNotificationKey=null',
    '  mVibrateNotificationKey=null',
    '  mDisableNotificationEffects=false',
    '  mCallState=CALL_STATE_IDLE',
  );
  return lines.join('\n') + '\n';
}

function elapsed(ms: number): string {
  const total = Math.max(0, ms);
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  return `+${h > 0 ? `${h}h` : ''}${m}m${s}s${total % 1000}ms`;
}

function location(dev: Device): string {
  // A fix's `et=` is elapsedRealtime at the fix: the device's uptime then.
  const boot = Date.now() - dev.uptimeMs();
  const lines = [
    'Location Manager State:',
    '  User Info:',
    '    current user: [0]',
    `  Location Setting: ${dev.settings.get('secure', 'location_mode') !== '0'}`,
    '  Location Providers:',
  ];
  for (const provider of ['passive', 'network', 'fused', 'gps']) {
    const fix =
      dev.locations.get(provider) ?? (provider === 'passive' ? dev.locations.get('gps') : undefined);
    lines.push(`    ${provider} provider:`, '      service: ProviderRequest[OFF]');
    if (fix === undefined) {
      lines.push('      last location=null');
    } else {
      const loc = `Location[${provider} ${fix.latitude.toFixed(6)},${fix.longitude.toFixed(6)} hAcc=5.0 et=${elapsed(fix.time - boot)} alt=${fix.altitude} vAcc=0.5]`;
      lines.push(
        `      last location=${loc}`,
        `      last coarse location=Location[${provider} ${fix.latitude.toFixed(2)},${fix.longitude.toFixed(2)} hAcc=2000.0 et=${elapsed(fix.time - boot)}]`,
      );
    }
  }
  return lines.join('\n') + '\n';
}

function power(dev: Device): string {
  const on = dev.ui.screenOn;
  return `POWER MANAGER (dumpsys power)

Power Manager State:
  mDirty=0x0
  mWakefulness=${on ? 'Awake' : 'Asleep'}
  mWakefulnessChanging=false
  mIsPowered=true
  mPlugType=2
  mBatteryLevel=100
  mStayOn=false
  mProximityPositive=false
  mHoldingWakeLockSuspendBlocker=false
  mHoldingDisplaySuspendBlocker=${on}

${wakeLockSection(dev.power)}

Display Power: state=${on ? 'ON' : 'OFF'}
`;
}

function display(dev: Device): string {
  const d = dev.display();
  return `DISPLAY MANAGER (dumpsys display)
  mOnlyCore=false
  mSafeMode=false
  mPendingTraversal=false
  mViewports=[DisplayViewport{type=INTERNAL, valid=true, isActive=true, displayId=0, uniqueId='local:4619827259835644672', physicalPort=0, orientation=${d.rotation}, logicalFrame=Rect(0, 0 - ${d.width}, ${d.height}), physicalFrame=Rect(0, 0 - ${d.width}, ${d.height}), deviceWidth=${d.width}, deviceHeight=${d.height}}]
  mDefaultDisplayDefaultColorMode=0
  mScreenState=${dev.ui.screenOn ? 'ON' : 'OFF'}
`;
}

/**
 * `dumpsys input`: the touchscreen's section of the input reader, as TouchInputMapper::dump prints it
 * (frameworks/native/services/inputflinger/reader/mapper/TouchInputMapper.cpp). The orientation line
 * is the version-dependent part clients parse: `SurfaceOrientation: 1` through Android 12L,
 * `InputDeviceOrientation: 1` on 13 and 14, `InputDeviceOrientation: Rotation90` from 15 — as
 * MaaFramework's DeviceInfo.cpp records from real devices (its orientation command greps both names).
 */
function input(dev: Device): string {
  const d = dev.display();
  const orientation = !since(dev.sdk, 'inputDeviceOrientation')
    ? `SurfaceOrientation: ${d.rotation}`
    : !since(dev.sdk, 'orientationRotationNames')
      ? `InputDeviceOrientation: ${d.rotation}`
      : `InputDeviceOrientation: Rotation${d.rotation * 90}`;
  return `INPUT MANAGER (dumpsys input)

Input Manager Service (Java) State:
  Interactive: ${dev.ui.screenOn}

Input Reader State (Nums of device: 1):
  Device 4: touchscreen
    EventHub Devices: [ 4 ]
    Generation: 24
    IsExternal: false
    AssociatedDisplayPort: <none>
    HasMic:     false
    Sources: TOUCHSCREEN
    KeyboardType: 0
    Touch Input Mapper (mode - DIRECT):
      Parameters:
        GestureMode: MULTI_TOUCH
        DeviceType: TOUCH_SCREEN
        OrientationAware: true
      Viewport INTERNAL: displayId=0, uniqueId=local:4619827259835644672, port=0, orientation=${d.rotation}, logicalFrame=[0, 0, ${d.width}, ${d.height}], physicalFrame=[0, 0, ${d.width}, ${d.height}], deviceSize=[${d.width}, ${d.height}], isActive=[1]
      RawSurfaceWidth: ${d.width}px
      RawSurfaceHeight: ${d.height}px
      ${orientation}
`;
}

/** `dumpsys gfxinfo PKG [reset]` from the device's frame model (frame-stats.ts). */
function gfxinfo(dev: Device, pkg: string | undefined, args: readonly string[]): string {
  const proc = pkg === undefined ? undefined : dev.procs.forPackage(pkg);
  if (pkg === undefined || proc === undefined) {
    return `No process found for: ${pkg ?? ''}\n`;
  }
  return dev.frames.dump(proc.pid, pkg, dev.sdk, args.includes('reset'));
}

/**
 * `dumpsys SurfaceFlinger --display-id`: the one physical display, with the id `screencap -d` takes.
 * An emulator's line is a real capture's (a Pixel emulator: `port=0 pnpId=GGL
 * displayName="EMU_display_0"`); a phone's has a panel port and maker id and an empty name, as a
 * Qualcomm phone's capture does (`port=129 pnpId=QCM displayName=""`).
 */
function surfaceFlingerDisplays(dev: Device): string {
  const emulator = dev.prop('ro.kernel.qemu') === '1';
  return emulator
    ? 'Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL displayName="EMU_display_0"\n'
    : 'Display 4619827259835644672 (HWC display 0): port=129 pnpId=QCM displayName=""\n';
}

/** Packages added to the Doze allow-list per device (`dumpsys deviceidle whitelist +PKG`). */
const idleAllowed = new WeakMap<Device, Set<string>>();

/**
 * `dumpsys deviceidle whitelist [+PKG|-PKG]…` (AOSP DeviceIdleController's shell): with no operand the
 * list, one `system,PKG,UID` or `user,PKG,UID` line each (the form appium-adb's getDeviceIdleWhitelist
 * documents from a phone); `+PKG` adds an installed package ("Added: PKG", else "Unknown package:
 * PKG"), `-PKG` removes one on the list ("Removed: PKG"), as the controller's shell prints them.
 */
function deviceIdleWhitelist(dev: Device, ops: string[]): string {
  let mine = idleAllowed.get(dev);
  if (mine === undefined) {
    mine = new Set();
    idleAllowed.set(dev, mine);
  }
  if (ops.length === 0) {
    return [
      `system,com.android.shell,${dev.uidOf('com.android.shell')}`,
      ...[...mine].map((p) => `user,${p},${dev.uidOf(p)}`),
    ]
      .map((l) => `${l}\n`)
      .join('');
  }
  return ops
    .map((op) => {
      const pkg = op.slice(1);
      if (op[0] !== '+' && op[0] !== '-') {
        return `Package must be prefixed with + or -: ${op}\n`;
      }
      if (op[0] === '+') {
        if (!dev.packages.has(pkg)) {
          return `Unknown package: ${pkg}\n`;
        }
        mine.add(pkg);
        return `Added: ${pkg}\n`;
      }
      // Removing prints only when the package was on the list.
      return mine.delete(pkg) ? `Removed: ${pkg}\n` : '';
    })
    .join('');
}

/** `dumpsys SERVICE [ARGS]` for the services clients read. */
export const dumpsys: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const [service, ...args] = ctx.argv.slice(1);
  const operand = args.find((a) => !a.startsWith('-'));
  let out: string;
  switch (service) {
    case undefined:
      out = SERVICES.map((s) => `DUMP OF SERVICE ${s}:\n`).join('');
      break;
    case '-l':
      out = 'Currently running services:\n' + SERVICES.map((s) => `  ${s}\n`).join('');
      break;
    case 'deviceidle':
      out = args[0] === 'whitelist' ? deviceIdleWhitelist(dev, args.slice(1)) : 'Doze: not modelled\n';
      break;
    case 'SurfaceFlinger':
      out = args.includes('--display-id')
        ? surfaceFlingerDisplays(dev)
        : 'SurfaceFlinger: no dump modelled\n';
      break;
    case 'battery':
      out = battery();
      break;
    case 'package':
      // `dumpsys package packages` (or `p`): every package's section.
      out = dumpPackages(dev, operand === 'packages' || operand === 'p' ? undefined : operand);
      break;
    case 'meminfo':
      out = meminfo(dev, operand);
      break;
    case 'gfxinfo':
      out = gfxinfo(dev, operand, args);
      break;
    case 'activity': {
      const sub = args[0];
      if (sub === 'exit-info') {
        if (!since(dev.sdk, 'exitInfo')) {
          out = 'Bad activity command, or no activities match: exit-info\nUse -h for help.\n';
          break;
        }
        out = dev.exits.dump(args[1]);
      } else if (sub === 'top') {
        out = dumpActivityTop(dev);
      } else if (sub === 'activities' || sub === 'a' || sub === undefined) {
        out = dumpActivities(dev);
      } else if (sub === 'processes' || sub === 'p') {
        out = dumpProcesses(dev);
      } else if (sub === 'services' || sub === 's') {
        // `dumpsys activity services PACKAGE` (or a component of it) narrows to that package.
        out = dev.services.dump(args[1]?.split('/')[0]);
      } else if (sub === 'recents' || sub === 'r') {
        out =
          'ACTIVITY MANAGER RECENT TASKS (dumpsys activity recents)\n' +
          dev.ui.tasks
            .map(
              (t, i) =>
                `  * Recent #${i}: Task{${hexId('task' + t.id)} #${t.id} type=standard A=${dev.uidOf(t.pkg)}:${t.pkg}}\n`,
            )
            .join('');
      } else {
        out = `Bad activity command, or no activities match: ${sub}\nUse -h for help.\n`;
      }
      break;
    }
    case 'window': {
      const sub = args[0];
      out =
        sub === 'windows' || sub === 'w'
          ? dumpWindows(dev)
          : sub === 'displays' || sub === 'd'
            ? dumpDisplays(dev)
            : sub === 'policy' || sub === 'p'
              ? dumpWindowPolicy(dev)
              : dumpWindowPolicy(dev) + '\n' + dumpDisplays(dev) + '\n' + dumpWindows(dev);
      break;
    }
    case 'input':
      out = input(dev);
      break;
    case 'input_method':
      out = dumpInputMethod(dev);
      break;
    case 'notification':
      out = notifications(dev, !args.includes('--noredact'));
      break;
    case 'location':
      out = location(dev);
      break;
    case 'power':
      out = power(dev);
      break;
    case 'accessibility':
      out = dumpAccessibility(dev.power, dev.settings);
      break;
    case 'display':
      out = display(dev);
      break;
    case 'dropbox':
      out = dev.dropbox.dump(args);
      break;
    case 'wifi':
      out = `Wi-Fi is ${dev.settings.flag('wifi_on') && !dev.settings.flag('airplane_mode_on') ? 'enabled' : 'disabled'}\nVerbose logging is off\n`;
      break;
    case 'connectivity': {
      const wifi = dev.settings.flag('wifi_on') && !dev.settings.flag('airplane_mode_on');
      const data = dev.settings.flag('mobile_data') && !dev.settings.flag('airplane_mode_on');
      out = `NetworkProviders for:\n\nActive default network: ${wifi ? 100 : data ? 101 : 'none'}\n\nCurrent Networks:\n${wifi ? '  NetworkAgentInfo{network{100}  handle{430570987533}  ni{WIFI CONNECTED extra: } ...}\n' : ''}${data ? '  NetworkAgentInfo{network{101}  handle{434865954829}  ni{MOBILE[LTE] CONNECTED extra: } ...}\n' : ''}`;
      break;
    }
    default:
      await ctx.stderr.write(`Can't find service: ${service}\n`);
      return 0;
  }
  await ctx.stdout.write(out);
  return 0;
};
