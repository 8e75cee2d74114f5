/**
 * Evidence: real devices' `getprop` (profiles/pixel-8-pro-android16/out/001-getprop.out, notes/android-tools-facts.md); the
 * fingerprint's form from build/make/core/sysprop.mk (ro.build.fingerprint).
 */
import type { SimDeviceIdentity } from '../device-api.js';
import { hashString } from './ids.js';

/** Android build ids by SDK level (for fingerprints and ro.build.id). */
const BUILD_IDS: Readonly<Record<number, string>> = {
  28: 'PQ3A.190801.002',
  29: 'QQ3A.200805.001',
  30: 'RQ3A.211001.001',
  31: 'SQ3A.220705.004',
  32: 'SQ3A.220705.004',
  33: 'TQ3A.230901.001',
  34: 'UQ1A.240205.004',
  35: 'AP4A.250205.002',
  36: 'BP2A.250605.031',
};

/** True when the identity describes an emulator (`emulator-N`). */
export function isEmulator(identity: SimDeviceIdentity): boolean {
  return identity.serial.startsWith('emulator-');
}

/** The device's primary ABI. */
export function primaryAbi(identity: SimDeviceIdentity): 'arm64-v8a' | 'x86_64' {
  return isEmulator(identity) ? 'x86_64' : 'arm64-v8a';
}

/** ro.build.fingerprint for an identity. */
export function fingerprint(identity: SimDeviceIdentity): string {
  const id = BUILD_IDS[identity.sdk] ?? 'UQ1A.240205.004';
  const incremental = 10_000_000 + (hashString(identity.model + identity.sdk) % 1_000_000);
  const type = isEmulator(identity) ? 'userdebug' : 'user';
  const keys = isEmulator(identity) ? 'dev-keys' : 'release-keys';
  return `google/${identity.product}/${identity.device}:${identity.release}/${id}/${incremental}:${type}/${keys}`;
}

/** The system properties `getprop` lists for a device (setprop changes go in a per-device overlay). */
export function buildProps(identity: SimDeviceIdentity): Map<string, string> {
  const emu = isEmulator(identity);
  const id = BUILD_IDS[identity.sdk] ?? 'UQ1A.240205.004';
  const fp = fingerprint(identity);
  const abi = primaryAbi(identity);
  const serial = emu
    ? 'EMULATOR' + identity.serial.slice('emulator-'.length) + 'X0'
    : identity.serial
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(-12)
        .toUpperCase() || 'SIM0001';
  const props: [string, string][] = [
    ['dalvik.vm.heapsize', '512m'],
    ['dalvik.vm.heapgrowthlimit', '256m'],
    ['dev.bootcomplete', '1'],
    ['gsm.operator.alpha', emu ? 'T-Mobile' : 'Carrier'],
    ['gsm.sim.state', 'READY'],
    ['init.svc.adbd', 'running'],
    ['init.svc.bootanim', 'stopped'],
    ['net.bt.name', 'Android'],
    ['persist.sys.locale', 'en-US'],
    ['persist.sys.timezone', 'GMT'],
    ['persist.sys.usb.config', 'adb'],
    ['ro.adb.secure', '1'],
    ['ro.board.platform', emu ? 'ranchu' : 'gs101'],
    ['ro.boot.hardware', emu ? 'ranchu' : identity.device],
    ['ro.boot.qemu', emu ? '1' : '0'],
    ['ro.boot.serialno', serial],
    ['ro.build.characteristics', emu ? 'emulator' : 'nosdcard'],
    ['ro.build.date.utc', '1700000000'],
    [
      'ro.build.description',
      `${identity.product}-${emu ? 'userdebug' : 'user'} ${identity.release} ${id} ${fp.split('/')[4]?.split(':')[0] ?? ''} ${emu ? 'dev-keys' : 'release-keys'}`,
    ],
    ['ro.build.display.id', id],
    ['ro.build.fingerprint', fp],
    ['ro.build.flavor', `${identity.product}-${emu ? 'userdebug' : 'user'}`],
    ['ro.build.id', id],
    ['ro.build.tags', emu ? 'dev-keys' : 'release-keys'],
    ['ro.build.type', emu ? 'userdebug' : 'user'],
    ['ro.build.user', 'android-build'],
    ['ro.build.version.codename', 'REL'],
    ['ro.build.version.incremental', fp.split('/')[4]?.split(':')[0] ?? '1'],
    ['ro.build.version.release', identity.release],
    ['ro.build.version.release_or_codename', identity.release],
    ['ro.build.version.sdk', String(identity.sdk)],
    ['ro.build.version.security_patch', '2024-02-05'],
    ['ro.debuggable', emu ? '1' : '0'],
    ['ro.hardware', emu ? 'ranchu' : identity.device],
    ['ro.kernel.qemu', emu ? '1' : ''],
    ['ro.opengles.version', '196610'],
    ['ro.product.board', identity.device],
    ['ro.product.brand', 'google'],
    ['ro.product.cpu.abi', abi],
    ['ro.product.cpu.abilist', abi === 'x86_64' ? 'x86_64,arm64-v8a' : 'arm64-v8a'],
    ['ro.product.cpu.abilist64', abi === 'x86_64' ? 'x86_64,arm64-v8a' : 'arm64-v8a'],
    ['ro.product.device', identity.device],
    ['ro.product.first_api_level', String(Math.min(identity.sdk, 30))],
    ['ro.product.locale', 'en-US'],
    ['ro.product.manufacturer', identity.manufacturer ?? 'Google'],
    ['ro.product.model', identity.model],
    ['ro.product.name', identity.product],
    ['ro.secure', '1'],
    ['ro.serialno', serial],
    ['ro.sf.lcd_density', String(identity.density)],
    ['ro.treble.enabled', 'true'],
    ['service.adb.root', '0'],
    ['sys.boot_completed', '1'],
    ['sys.usb.config', 'adb'],
    ['sys.usb.state', 'adb'],
    ['wifi.interface', 'wlan0'],
  ];
  if (identity.avdName !== undefined) {
    props.push(['ro.boot.qemu.avd_name', identity.avdName], ['ro.kernel.qemu.avd_name', identity.avdName]);
  }
  return new Map(props.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Whether the shell user may set a property (everything outside the read-only and init-owned spaces). */
export function shellMaySetProp(name: string): boolean {
  return !/^(ro\.|sys\.|init\.|dev\.|persist\.sys\.|ctl\.)/.test(name) && /^[A-Za-z0-9_.\-:@]+$/.test(name);
}
