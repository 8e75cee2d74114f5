/** `droidbus trust PATH`, `droidbus trust --list` and `droidbus untrust PATH` with the built CLI. */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

const home = tempDir('droidbus-trust-home-');
const work = tempDir('droidbus-trust-');
afterAll(() => {
  home.remove();
  work.remove();
});

const env = { DROIDBUS_HOME: home.dir };
const trusted = (): string[] =>
  (JSON.parse(readFileSync(path.join(home.dir, 'settings.json'), 'utf8')) as { trusted_projects: string[] })
    .trusted_projects;

describe('droidbus trust / untrust', () => {
  it('trusts the Gradle build around a folder, lists it, and revokes it', async () => {
    const project = realpathSync(work.dir);
    writeFileSync(path.join(project, 'settings.gradle.kts'), 'include(":app")\n');
    mkdirSync(path.join(project, 'app', 'src'), { recursive: true });

    const trust = await runCli(['trust', path.join(project, 'app', 'src')], { env });
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toContain(`Trusted ${project}`);
    expect(trusted()).toEqual([project]);

    const again = await runCli(['trust', project], { env });
    expect(again.code).toBe(0);
    expect(trusted()).toEqual([project]);

    const list = await runCli(['trust', '--list'], { env });
    expect(list.stdout).toBe(`${project}\n`);

    const untrust = await runCli(['untrust', path.join(project, 'app')], { env });
    expect(untrust.code).toBe(0);
    expect(untrust.stdout).toContain(`Revoked trust in ${project}`);
    expect(trusted()).toEqual([]);
  });

  it('refuses a folder that is not in a Gradle build, and bad usage', async () => {
    const plain = tempDir('droidbus-not-gradle-');
    try {
      const r = await runCli(['trust', plain.dir], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('is not in a Gradle build');
    } finally {
      plain.remove();
    }
    expect((await runCli(['trust'], { env })).code).toBe(2);
    expect((await runCli(['untrust', 'a', 'b'], { env })).code).toBe(2);
  });
});
