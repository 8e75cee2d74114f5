import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEVICE_READS, DEVICE_WRITE_VERBS, readArgv, type DeviceRead } from '../../src/device/reads.js';
import { quoteDeviceShellArg } from '../../src/adb/quote.js';
import { createSimDevice, runOn } from '../../src/sim/index.js';
import { testIdentity } from '../helpers/sim-identity.js';
import { ROOT } from '../helpers/paths.js';
import { sourceFiles } from '../helpers/source-files.js';

/** Where droidbus talks to devices for its tools (the simulator and test tools are not it). */
const AREAS = ['actors', 'adb', 'device', 'mcp', 'host', 'project', 'store'].map((a) =>
  path.join(ROOT, 'src', a),
);
const CATALOGUE = path.join(ROOT, 'src', 'device', 'reads.ts');

/** The simple commands of a `sh` template literal's text (interpolations become `X`). */
function simpleCommands(template: string): string[] {
  return template
    .replace(/\$\{[^}]*\}/g, 'X')
    .replace(/'[^']*'/g, 'Q')
    .split(/;|&&|\|\||\|/)
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

/** Commands that only shape output between reads (or a lone argument of a command built in parts). */
const GLUE = /^(?:echo|printf|grep)\b|^X$/;

describe('the device-read catalogue', () => {
  it('is where every read command an actor runs comes from: each sh`` literal is a write or glue', () => {
    const uncovered: string[] = [];
    for (const file of AREAS.flatMap(sourceFiles)) {
      if (file === CATALOGUE) {
        continue;
      }
      // Code only: doc comments name commands in backquotes too.
      const text = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const m of text.matchAll(/\bsh`((?:[^`\\]|\\.)*)`/g)) {
        for (const command of simpleCommands(m[1]!)) {
          const write = DEVICE_WRITE_VERBS.some((v) => command === v || command.startsWith(`${v} `));
          if (!write && !GLUE.test(command)) {
            uncovered.push(`${path.relative(ROOT, file)}: ${command}`);
          }
        }
      }
    }
    // A read belongs in src/device/reads.ts (then `droidbus device record` records it); a
    // command that changes the device belongs in DEVICE_WRITE_VERBS.
    expect(uncovered).toEqual([]);
  });

  it('names each read once', () => {
    const names = DEVICE_READS.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((n) => /^[a-z0-9-]+$/.test(n))).toBe(true);
  });

  it('has no command that is both a read and a write', () => {
    for (const r of DEVICE_READS) {
      const line = r.argv.map((a) => (typeof a === 'string' ? a : 'X')).join(' ');
      expect(
        DEVICE_WRITE_VERBS.some((v) => line === v || line.startsWith(`${v} `)),
        line,
      ).toBe(false);
    }
  });

  // A new read needs the simulator to answer it, or every e2e test of its tool fails far from the
  // cause: each read runs on a simulated device here (a stream is stopped once it has printed).
  it('is answered by the simulator, read by read', async () => {
    const dev = createSimDevice({ identity: testIdentity(5990), logcatRate: 0 });
    // An installed app's (the sample app's): the system apps' APK files are not in the model's tree.
    const pkg = 'com.droidbus.sample';
    const apk = (await runOn(dev, `pm path ${pkg}`)).stdout.trim().replace(/^package:/, '');
    expect(apk).toMatch(/\.apk$/);
    const fill = { package: pkg, apk, since: '01-01 00:00:00.000', skip: '0', count: '1' };
    const unanswered: string[] = [];
    for (const r of DEVICE_READS as readonly DeviceRead[]) {
      const line = readArgv(r, fill).map(quoteDeviceShellArg).join(' ');
      const stop = new AbortController();
      const streaming = r.argv[0] === 'logcat' && !r.argv.includes('-d') && !r.argv.includes('-g');
      if (streaming) {
        setTimeout(() => stop.abort(), 200).unref();
      }
      const result = await runOn(dev, line, { signal: stop.signal });
      // The command must exist and know its arguments; an answer such as pidof's exit 1 (the app is
      // not running) or a missing file is the device's answer, not a missing command.
      const output = result.stdout + result.stderr;
      if (
        result.code === 127 ||
        /not found|Can't find service|Unknown command|Bad activity command/.test(output)
      ) {
        unanswered.push(`${r.name} (${line}): exit ${result.code} ${result.stderr.trim().slice(0, 120)}`);
      }
    }
    expect(unanswered).toEqual([]);
  });
});
