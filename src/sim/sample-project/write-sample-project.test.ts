import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { builtStandInPath, gradlewBat, gradlewScript, writeSampleProject } from './write-sample-project.js';

const here = dirname(fileURLToPath(import.meta.url));
const base = mkdtempSync(join(tmpdir(), 'droidbus-write-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('writing the sample project', () => {
  it('points the wrapper at the built stand-in under dist/, even when run from sources', () => {
    expect(builtStandInPath()).toBe(
      join(here, '..', '..', '..', 'dist', 'sim', 'sample-project', 'gradlew-stand-in.js'),
    );
  });

  it('writes the files Gradle and Android Studio expect, gradlew executable', async () => {
    const dir = join(base, 'plain');
    await writeSampleProject(dir);
    for (const file of [
      'settings.gradle.kts',
      'build.gradle.kts',
      'gradle.properties',
      'gradle/wrapper/gradle-wrapper.properties',
      'app/build.gradle.kts',
      'app/proguard-rules.pro',
      'app/src/main/AndroidManifest.xml',
      'app/src/main/java/com/droidbus/sample/LoginActivity.kt',
      'app/src/main/java/com/droidbus/sample/HomeActivity.kt',
      'app/src/main/java/com/droidbus/sample/DetailActivity.kt',
    ]) {
      expect(statSync(join(dir, file)).isFile(), file).toBe(true);
    }
    expect(statSync(join(dir, 'gradlew')).mode & 0o777).toBe(0o755);
    const app = readFileSync(join(dir, 'app/build.gradle.kts'), 'utf8');
    expect(app).toContain('namespace = "com.droidbus.sample"');
    expect(app).toContain('flavorDimensions += "tier"');
    expect(readFileSync(join(dir, 'gradle/wrapper/gradle-wrapper.properties'), 'utf8')).toMatch(
      /gradle-8\.\d+(\.\d+)?-bin\.zip/,
    );
  });

  it('the wrapper runs from a directory whose name has spaces and quotes', async () => {
    const dir = join(base, `it's a "project"`);
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    await writeSampleProject(dir, { standInArgs: ['--import', tsx, join(here, 'gradlew-stand-in.ts')] });
    const out = execFileSync(join(dir, 'gradlew'), ['--version'], { cwd: dir, encoding: 'utf8' });
    expect(out).toMatch(/^Gradle 8\./m);
  });

  it('gradlew.bat quotes paths for cmd.exe and uses CRLF', () => {
    const bat = gradlewBat('C:\\Program Files\\nodejs\\node.exe', ['C:\\droidbus\\dist\\stand-in.js']);
    expect(bat).toContain('set NODE_EXE="C:\\Program Files\\nodejs\\node.exe"\r\n');
    expect(bat).toContain('%NODE_EXE% "C:\\droidbus\\dist\\stand-in.js" %*\r\n');
    expect(gradlewScript('/usr/bin/node', ["/a b/it's.js"])).toContain(
      `exec "$NODE" '/a b/it'\\''s.js' "$@"\n`,
    );
  });
});
