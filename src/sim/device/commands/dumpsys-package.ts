import type { Device } from '../device.js';
import { hexId } from '../ids.js';
import { RUNTIME_PERMISSIONS, shortComponent, type InstalledPackage } from '../packages.js';
import { primaryAbi } from '../props.js';
import { since } from '../android-versions.js';

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/** `yyyy-MM-dd HH:mm:ss` in local time, as PackageManager dumps print install times. */
export function pmTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

function packageSection(dev: Device, p: InstalledPackage): string[] {
  const { info } = p;
  const sdk = dev.sdk;
  const lines = [
    `  Package [${info.name}] (${hexId(info.name + dev.identity.serial)}):`,
    // Android 16 (SDK 36) prints `appId=` (a Baklava dump quoted in Perfetto's DumpsysPackageParser);
    // earlier releases `userId=` (tests/fixtures/logcat/dumpsys-package-samsung.txt).
    `    ${since(sdk, 'packageAppId') ? 'appId' : 'userId'}=${p.uid}`,
    `    pkg=Package{${hexId(info.name + 'pkg')} ${info.name}}`,
    `    codePath=${info.codePath}`,
    `    resourcePath=${info.codePath}`,
    `    legacyNativeLibraryDir=${info.codePath}/lib`,
    `    extractNativeLibs=false`,
    `    primaryCpuAbi=${info.system ? 'null' : primaryAbi(dev.identity)}`,
    '    secondaryCpuAbi=null',
    '    cpuAbiOverride=null',
    `    versionCode=${info.versionCode} minSdk=${info.minSdk} targetSdk=${info.targetSdk}`,
    '    minExtensionVersions=[]',
    `    versionName=${info.versionName}`,
    '    usesNonSdkApi=false',
    '    splits=[base]',
    '    apkSigningVersion=2',
    `    flags=[ ${info.system ? 'SYSTEM ' : ''}${info.debuggable ? 'DEBUGGABLE ' : ''}HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]`,
    '    privateFlags=[ PRIVATE_FLAG_ACTIVITIES_RESIZE_MODE_RESIZEABLE_VIA_SDK_VERSION ALLOW_AUDIO_PLAYBACK_CAPTURE PRIVATE_FLAG_ALLOW_NATIVE_HEAP_POINTER_TAGGING ]',
    '    forceQueryable=false',
    `    dataDir=/data/user/0/${info.name}`,
    '    supportsScreens=[small, medium, large, xlarge, resizeable, anyDensity]',
    `    timeStamp=${pmTime(p.lastUpdateTime)}`,
  ];
  if (!since(sdk, 'installTimePerUser')) {
    lines.push(`    firstInstallTime=${pmTime(p.firstInstallTime)}`);
  }
  lines.push(`    lastUpdateTime=${pmTime(p.lastUpdateTime)}`);
  lines.push(`    installerPackageName=${info.system ? 'null' : 'com.android.shell'}`);
  lines.push(
    `    signatures=PackageSignatures{${hexId(info.name + 'sig')} version:2, signatures:[${hexId(info.name + 'cert')}], past signatures:[]}`,
  );
  lines.push('    installPermissionsFixed=true');
  lines.push(`    pkgFlags=[ ${info.system ? 'SYSTEM ' : ''}HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]`);
  if (info.permissions.length > 0) {
    lines.push('    requested permissions:');
    for (const perm of info.permissions) {
      lines.push(`      ${perm}`);
    }
    const install = info.permissions.filter((x) => !RUNTIME_PERMISSIONS.has(x));
    if (install.length > 0) {
      lines.push('    install permissions:');
      for (const perm of install) {
        lines.push(`      ${perm}: granted=true`);
      }
    }
  }
  const enabled = p.enabled ? 0 : 3;
  lines.push(
    `    User 0: ceDataInode=${100000 + (p.uid % 9000)} installed=true hidden=false suspended=false distractionFlags=0 stopped=${p.stopped} notLaunched=false enabled=${enabled} instant=false virtual=false`,
  );
  if (since(sdk, 'installTimePerUser')) {
    lines.push(
      `      installReason=0`,
      `      firstInstallTime=${pmTime(p.firstInstallTime)}`,
      `      uninstallReason=0`,
    );
  }
  lines.push('      gids=[3003]');
  const runtime = info.permissions.filter((x) => RUNTIME_PERMISSIONS.has(x));
  if (runtime.length > 0) {
    lines.push('      runtime permissions:');
    for (const perm of runtime) {
      lines.push(
        `        ${perm}: granted=${p.granted.has(perm)}, flags=[ USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED${p.granted.has(perm) ? '|USER_SET' : ''}]`,
      );
    }
  }
  lines.push(`      enabledComponents:`, `      disabledComponents:`);
  return lines;
}

/** `dumpsys package [PKG]` (also `pm dump PKG`): the resolver table for the launcher activity and the package sections. */
export function dumpPackages(dev: Device, pkg?: string): string {
  const list = [...dev.packages.values()].filter((p) => pkg === undefined || p.info.name === pkg);
  if (list.length === 0) {
    return pkg === undefined ? '' : `Unable to find package: ${pkg}\n`;
  }
  const lines: string[] = [];
  const launchable = list.filter((p) => p.info.launcher !== null);
  if (launchable.length > 0) {
    lines.push('Activity Resolver Table:', '  Non-Data Actions:', '      android.intent.action.MAIN:');
    for (const p of launchable) {
      lines.push(
        `        ${hexId(p.info.name + 'act')} ${shortComponent(p.info.name, p.info.launcher as string)} filter ${hexId(p.info.name + 'filter')}`,
        '          Action: "android.intent.action.MAIN"',
        '          Category: "android.intent.category.LAUNCHER"',
      );
    }
    lines.push('');
  }
  lines.push('Key Set Manager:');
  for (const p of list) {
    lines.push(`  [${p.info.name}]`, `      Signing KeySets: ${50 + (p.uid % 40)}`);
  }
  lines.push('', 'Packages:');
  for (const p of list) {
    lines.push(...packageSection(dev, p));
  }
  lines.push('');
  return lines.join('\n') + '\n';
}
