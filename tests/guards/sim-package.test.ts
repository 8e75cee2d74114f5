/**
 * The simulator is a package of its own in the repo (issue 57): everything outside src/sim imports it
 * through its entry, src/sim/index.ts, and it imports from the rest of droidbus only the shared
 * modules named here, each for a reason. So the oracle droidbus is tested against does not borrow
 * droidbus's own reading of a device (the read catalogue, the actors' parsers), and it could be
 * published on its own later.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';

const SIM = path.join(ROOT, 'src', 'sim');
const ENTRY = path.join(SIM, 'index.ts');

/** Shared modules the simulator may import, and why each is shared rather than the simulator's own. */
const SHARED: Readonly<Record<string, string>> = {
  'src/util/apk.ts': "reads an APK's manifest when one is pushed or installed (the zip and AXML formats)",
  'src/util/apk-zip.ts': 'writes the test APKs the sample project and the helper install (the zip format)',
  'src/util/apk-binary-xml.ts':
    "the element tree the APK writer compiles (a resource file's XML, as aapt2 would)",
  'src/util/apk-label.ts': "opens an installed APK's entries on demand (the zip format)",
  'src/util/network-security-config.ts':
    "an app's network security config: the file format and AOSP's rules for it (XmlConfigSource), tested on aapt2-linked APKs — the platform's decision, not droidbus's reading of a device",
  'src/util/log.ts': 'the one stderr logger (stdout is the MCP protocol in every droidbus process)',
  'src/util/app-args.ts': 'the argv the test SDK writes into its stand-in scripts',
  'src/util/dump-decode.ts':
    "a recorded dump's bytes to text (UTF-8/16, CP949, GBK, Shift_JIS): the format's rules",
  'src/profile/profile-format.ts':
    'the profile folder format, written by `device record` and read by the replay',
  'src/adb/client.ts': '`droidbus sim` finds the adb server its devices announce themselves to',
  'src/adb/server-start.ts': '… and starts one with the SDK adb when none answers',
  'src/project/gradle-name-matcher.ts':
    "Gradle's NameMatcher, ported from Gradle's source: the stand-in selects tasks as Gradle does",
  'src/project/gradlew-stand-in.ts': "the marker line a sample project's gradlew carries",
};

/**
 * Packages outside the repo the simulator may import: sharp draws screenshots; chrome-remote-interface
 * drives the real Chromium behind the sim's WebViews (viewport, navigation).
 */
const PACKAGES = /^(node:[\w/]+|sharp|chrome-remote-interface)$/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) {
      return [];
    }
    return statSync(full).isDirectory() ? files(full) : /\.(ts|tsx|mts)$/.test(name) ? [full] : [];
  });
}

/** Every import and re-export specifier of a file: static (one line or several), bare and dynamic. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s*'([^']+)'/gm),
    ...text.matchAll(/^\s*import\s*'([^']+)'/gm),
    ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ].map((m) => m[1]!);
}

function target(file: string, spec: string): string {
  return path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
}

const rel = (f: string) => path.relative(ROOT, f);

describe('the simulator as a package', () => {
  const simFiles = files(SIM);
  const outside = ['src', 'tests', 'bench', 'scripts', 'web'].flatMap((d) => files(path.join(ROOT, d)));

  it('finds the files it judges', () => {
    expect(simFiles.length).toBeGreaterThan(100);
    expect(simFiles).toContain(ENTRY);
    expect(outside.some((f) => rel(f) === 'src/cli/sim.ts')).toBe(true);
  });

  // Its tests may also read droidbus's own modules: several check that what the simulator prints is
  // what droidbus's readers expect (a window dump, the shell quoting). They are not part of the package.
  it('imports from the rest of droidbus only the shared modules named here', () => {
    const found: string[] = [];
    for (const file of simFiles.filter((f) => !f.endsWith('.test.ts'))) {
      for (const spec of specifiers(file)) {
        if (!spec.startsWith('.')) {
          if (!PACKAGES.test(spec)) {
            found.push(`${rel(file)} imports the package ${spec}`);
          }
        } else if (
          !target(file, spec).startsWith(SIM + path.sep) &&
          SHARED[rel(target(file, spec))] === undefined
        ) {
          found.push(`${rel(file)} imports ${rel(target(file, spec))}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('is imported from outside only through its entry, src/sim/index.ts', () => {
    const found: string[] = [];
    for (const file of outside.filter((f) => !f.startsWith(SIM + path.sep))) {
      for (const spec of specifiers(file).filter((s) => s.startsWith('.'))) {
        const t = target(file, spec);
        if (t.startsWith(SIM + path.sep) && t !== ENTRY) {
          found.push(`${rel(file)} imports ${rel(t)}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('names only shared modules that exist and that it uses', () => {
    const used = new Set(
      simFiles.flatMap((f) =>
        specifiers(f)
          .filter((s) => s.startsWith('.'))
          .map((s) => rel(target(f, s))),
      ),
    );
    expect(Object.keys(SHARED).filter((m) => !used.has(m))).toEqual([]);
  });
});
