/**
 * `droidbus device record`: runs every read in the catalogue (src/device/reads.ts) on one
 * device, through the adb server, and writes the answers into a profile, personal data redacted.
 */
import { pmValues } from '../device/parsers/pm-lines.js';
import type { Device } from '../device/device.js';
import { DEVICE_READS, isPerPackage, READS, readArgv, type DeviceRead } from '../device/reads.js';
import { shArgv } from '../adb/shell-command.js';
import { parseResumedActivity } from '../device/parsers/device-facts.js';
import { VERSION } from '../version.js';
import {
  HELPER_SOURCE_ARGV,
  writeProfile,
  type AnswerToWrite,
  type ProfileManifest,
  type ProfileRedaction,
} from './profile-format.js';
import { recordHelperSource } from './profile-helper-source.js';
import { IDENTITY_READS, learnIdentifiers, newAddressBook, redactOutput } from './profile-redact.js';

export interface RecordOptions {
  serial: string;
  /** Packages the per-package reads are run for; empty: the app in front, if any. */
  packages: readonly string[];
  out: string;
  keepNotifications: boolean;
  /** Record the screenshot too: pixels, which no pattern can redact (left out unless asked). */
  keepScreenshot?: boolean;
  signal?: AbortSignal;
  /** Progress for the person running it (stderr). */
  progress?: (line: string) => void;
}

/** The reads a recording runs: every recorded read, and the log dump that fills the buffers. */
export function recordedReads(): DeviceRead[] {
  return DEVICE_READS.filter((r) => r.kind === 'recorded' || r === READS.logDump);
}

/** Records the device into a new profile folder; returns its manifest. */
export async function recordProfile(device: Device, o: RecordOptions): Promise<ProfileManifest> {
  const progress = o.progress ?? (() => undefined);
  const options = { signal: o.signal, timeoutMs: 60_000, maxBytes: 64 * 1024 * 1024 };
  // Every answer is read first and redacted after: an identifier learned from one (getprop's serial
  // number) is then removed from every other (the logcat dump that printed it) whatever the order.
  const raw: AnswerToWrite[] = [];
  const take = async (read: DeviceRead, argv: readonly string[]): Promise<Buffer> => {
    const r = await device.shellBytes(shArgv(argv), options);
    raw.push({ read: read.name, argv, stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode });
    progress(`${argv.join(' ')}: ${r.stdout.length} bytes, exit ${r.exitCode ?? 'unknown'}`);
    return r.stdout;
  };
  const global = recordedReads().filter(
    (r) => !isPerPackage(r) && (r !== READS.screencap || o.keepScreenshot === true),
  );
  let activities = '';
  for (const read of global) {
    const out = await take(read, readArgv(read));
    if (read === READS.activities) {
      activities = out.toString('utf8');
    }
  }
  const source = await recordHelperSource(device, o.signal);
  if (source !== null) {
    raw.push({
      read: null,
      argv: HELPER_SOURCE_ARGV,
      stdout: Buffer.from(source),
      stderr: Buffer.alloc(0),
      exitCode: 0,
    });
    progress(`the UI helper's page source: ${Buffer.byteLength(source)} bytes`);
  }
  const packages =
    o.packages.length > 0
      ? [...o.packages]
      : [parseResumedActivity(activities)?.package].flatMap((p) => p ?? []);
  for (const pkg of packages) {
    for (const read of recordedReads().filter((r) => isPerPackage(r) && r !== READS.apkHash)) {
      const out = await take(read, readArgv(read, { package: pkg }));
      if (read === READS.apkPaths) {
        const apks = pmValues(out.toString('utf8'));
        for (const apk of apks) {
          await take(READS.apkHash, readArgv(READS.apkHash, { apk }));
        }
      }
    }
  }
  const book = newAddressBook();
  // What identifies the device beyond its properties — its Android ID, the Wi-Fi networks it keeps —
  // is read to be removed everywhere, and is itself never written into the profile.
  for (const { read, argv } of IDENTITY_READS) {
    const r = await device.shellBytes(shArgv(argv), options).catch(() => null);
    if (r !== null) {
      learnIdentifiers(book, r.stdout, read);
    }
  }
  for (const a of raw) {
    learnIdentifiers(book, a.stdout, a.read);
  }
  const redactions: ProfileRedaction[] = [];
  const answers = raw.map((a): AnswerToWrite => {
    const redact = (bytes: Uint8Array) =>
      redactOutput(a.read, a.argv, bytes, { serial: o.serial, keepNotifications: o.keepNotifications, book });
    const out = redact(a.stdout);
    const err = redact(a.stderr);
    redactions.push(...out.redactions, ...err.redactions);
    return { ...a, stdout: out.bytes, stderr: err.bytes };
  });
  const props = answers.find((a) => a.read === READS.props.name);
  const prop = (name: string): string | null => {
    const m = new RegExp(`^\\[${name.replace(/\./g, '\\.')}\\]: \\[([^\\]]*)\\]`, 'm').exec(
      props === undefined ? '' : Buffer.from(props.stdout).toString('utf8'),
    );
    return m?.[1] ?? null;
  };
  const description = [prop('ro.product.manufacturer'), prop('ro.product.model')].filter(Boolean).join(' ');
  const release = prop('ro.build.version.release');
  return writeProfile(
    o.out,
    {
      recorded_at: new Date().toISOString(),
      droidbus_version: VERSION,
      description: `${description || 'a device'}${release ? `, Android ${release}` : ''} (API ${prop('ro.build.version.sdk') ?? '?'}), recorded by droidbus device record`,
      packages,
      features: await device.features(),
      redactions,
    },
    answers,
  );
}
