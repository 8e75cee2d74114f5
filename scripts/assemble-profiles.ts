/**
 * Assembles the bundled device profiles (profiles/NAME/) from real captures: the getprop excerpts
 * in profiles/captures/ and the cited fixtures under tests/fixtures/. Every answer names its source;
 * profiles/SOURCES.md says where each capture comes from. Run it after changing a capture:
 *
 *   npx tsx scripts/assemble-profiles.ts
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readArgv, READS, type DeviceRead, type ReadFill } from '../src/device/reads.js';
import { writeProfile, type AnswerToWrite } from '../src/profile/profile-format.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROFILES = path.join(ROOT, 'profiles');

interface Part {
  read: DeviceRead | null;
  /** For a command outside the catalogue. */
  argv?: string[];
  fill?: ReadFill;
  /** A file under the repository root, or the literal answer. */
  file?: string;
  text?: string;
  source: string;
}

interface Bundled {
  name: string;
  description: string;
  packages: string[];
  parts: Part[];
}

const derived = (what: string): string => `derived: ${what} (see profiles/SOURCES.md)`;

const BUNDLED: Bundled[] = [
  {
    name: 'pixel-8-pro-android16',
    description:
      'A recent Pixel-class phone: Pixel 8 Pro (husky), Android 16 (API 36), assembled from public captures of Pixel devices',
    packages: ['com.android.systemui', 'com.google.android.deskclock'],
    parts: [
      {
        read: READS.props,
        file: 'profiles/captures/getprop-pixel-8-pro-husky-android16.txt',
        source: 'capture',
      },
      { read: READS.sdk, text: '36\n', source: derived('[ro.build.version.sdk] of the getprop capture') },
      {
        read: READS.model,
        text: 'Pixel 8 Pro\n',
        source: derived('[ro.product.model] of the getprop capture'),
      },
      {
        read: READS.wmSize,
        text: 'Physical size: 1344x2992\n',
        source: derived("the Pixel 8 Pro's panel in wm's format"),
      },
      {
        read: READS.wmDensity,
        text: 'Physical density: 480\n',
        source: derived('[ro.sf.lcd_density] of the getprop capture'),
      },
      {
        read: READS.notifications,
        file: 'tests/fixtures/notifications/android16-deskclock-stopwatch.txt',
        source: 'capture',
      },
      {
        read: READS.meminfo,
        fill: { package: 'com.android.systemui' },
        file: 'tests/fixtures/logcat/dumpsys-meminfo-systemui.txt',
        source: 'capture',
      },
      {
        read: READS.gfxinfo,
        fill: { package: 'com.instagram.android' },
        file: 'tests/fixtures/logcat/gfxinfo-instagram-android12.txt',
        source: 'capture',
      },
      {
        read: READS.windows,
        file: 'tests/fixtures/windows/android12-launcher-ime-hidden-appium.txt',
        source: 'capture',
      },
      { read: READS.uiDump, file: 'tests/fixtures/ui/lingbook-list-cjk.xml', source: 'capture' },
      { read: READS.logDump, file: 'tests/fixtures/logcat/threadtime-dividers.txt', source: 'capture' },
    ],
  },
  {
    name: 'huawei-mate9-android9',
    description:
      'An older OEM build: Huawei Mate 9 (MHA-AL00), EMUI 9.1 on Android 9 (API 28), with a Huawei logd banner, assembled from public captures',
    packages: [],
    parts: [
      {
        read: READS.props,
        file: 'profiles/captures/getprop-huawei-mate9-mha-al00-android9.txt',
        source: 'capture',
      },
      { read: READS.sdk, text: '28\n', source: derived('[ro.build.version.sdk] of the getprop capture') },
      { read: READS.logDump, file: 'tests/fixtures/logcat/huawei-banner.txt', source: 'capture' },
      { read: READS.uiDump, file: 'tests/fixtures/ui/spotlight-rotation1.xml', source: 'capture' },
    ],
  },
  {
    name: 'galaxy-nexus-crlf',
    description:
      'An OEM device whose tools answer with CRLF line ends (no shell v2, so adb reads it through a pty): a Samsung Galaxy Nexus on Android 4.3, assembled from public captures',
    packages: [],
    parts: [
      {
        read: null,
        argv: ['logcat', '-d', '-v', 'brief'],
        file: 'tests/fixtures/logcat/brief-galaxy-nexus.txt',
        source: 'capture',
      },
      { read: READS.uiDump, file: 'tests/fixtures/ui/facebook-multiwindow.xml', source: 'capture' },
      {
        read: READS.sdk,
        text: '18\r\n',
        source: derived(
          'the log capture is of a Galaxy Nexus on Jelly Bean MR2 (galaxy_nexus_jbmr2_brief.log): Android 4.3, API 18; CRLF as its pty prints',
        ),
      },
      {
        read: READS.packageDumpAll,
        file: 'tests/fixtures/logcat/dumpsys-package-samsung.txt',
        source: 'capture',
      },
      {
        read: READS.packages,
        text: 'package:com.samsung.android.provider.filterprovider\npackage:com.sec.android.app.DataCreate\n',
        source: derived("the two packages of the dumpsys package capture, in pm list packages' format"),
      },
    ],
  },
  {
    name: 'emulator-api34',
    description:
      'An emulator: sdk_gphone64_x86_64 AVD "kriklik", Android 14 (API 34), assembled from public captures',
    packages: [],
    parts: [
      { read: READS.props, file: 'profiles/captures/getprop-emulator-api34-kriklik.txt', source: 'capture' },
      { read: READS.sdk, text: '34\n', source: derived('[ro.build.version.sdk] of the getprop capture') },
      {
        read: READS.avdName,
        text: 'kriklik\n',
        source: derived('[ro.boot.qemu.avd_name] of the getprop capture'),
      },
      {
        read: READS.windows,
        file: 'tests/fixtures/windows/android11-anr-dialog-appium.txt',
        source: 'capture',
      },
      { read: READS.uiDump, file: 'tests/fixtures/ui/launcher-pixel.xml', source: 'capture' },
      { read: READS.logDump, file: 'tests/fixtures/logcat/threadtime-api25.txt', source: 'capture' },
    ],
  },
  {
    name: 'android11-tv-and-kiosk',
    description:
      'Android 11 and 12 devices that are not phones (a Fire TV, an Android TV, a Sunmi kiosk), assembled from public captures: exit reasons, notifications as dumped without --noredact, location',
    packages: ['com.eurosport.player'],
    parts: [
      {
        read: READS.exitInfo,
        fill: { package: 'com.eurosport.player' },
        file: 'tests/fixtures/logcat/dumpsys-exit-info-firetv.txt',
        source: 'capture',
      },
      { read: READS.sdk, text: '30\n', source: derived('the Fire TV capture is of Android 11 (API 30)') },
      {
        read: READS.notifications,
        file: 'tests/fixtures/notifications/android12-tv-redacted-usb-debugging.txt',
        source: 'capture',
      },
      {
        read: READS.location,
        file: 'tests/fixtures/location/android11-sunmi-network-fix.txt',
        source: 'capture',
      },
      { read: READS.uiDump, file: 'tests/fixtures/ui/lingbook-editor-entities.xml', source: 'capture' },
    ],
  },
];

for (const b of BUNDLED) {
  const dir = path.join(PROFILES, b.name);
  rmSync(dir, { recursive: true, force: true });
  const answers: AnswerToWrite[] = b.parts.map((p) => {
    const stdout =
      p.file !== undefined ? readFileSync(path.join(ROOT, p.file)) : Buffer.from(p.text ?? '', 'utf8');
    const argv = p.read === null ? (p.argv ?? []) : readArgv(p.read, p.fill ?? {});
    return {
      read: p.read?.name ?? null,
      argv,
      stdout,
      stderr: new Uint8Array(0),
      exitCode: 0,
      source: p.source === 'capture' ? `capture: ${p.file} (see profiles/SOURCES.md)` : p.source,
    };
  });
  writeProfile(
    dir,
    {
      recorded_at: '2026-12-01T00:00:00.000Z',
      droidbus_version: 'assembled by scripts/assemble-profiles.ts',
      description: b.description,
      packages: b.packages,
      redactions: [],
    },
    answers,
  );
  process.stderr.write(`wrote ${path.relative(ROOT, dir)} (${answers.length} answers)\n`);
}
