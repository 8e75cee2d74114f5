import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../tests/helpers/run-cli.js';
import { tempDir } from '../../tests/helpers/paths.js';
import { removeStaleTempFiles } from './atomic.js';

let home: ReturnType<typeof tempDir>;
beforeEach(() => {
  home = tempDir('droidbus-temp-sweep-');
});
afterEach(() => home.remove());

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('temp files of killed writes', () => {
  it("removes those whose writer died, keeps a live writer's and every other file", () => {
    mkdirSync(path.join(home.dir, 'debug-sessions'));
    const dead = path.join(home.dir, `.settings.json.${deadPid()}.0badc0de.tmp`);
    const deep = path.join(home.dir, 'debug-sessions', `.index.json.${deadPid()}.12345678.tmp`);
    const live = path.join(home.dir, `.build-history.json.${process.ppid}.abcdef01.tmp`);
    const other = path.join(home.dir, 'settings.json');
    for (const f of [dead, deep, live, other]) {
      writeFileSync(f, '{}');
    }
    expect(removeStaleTempFiles(home.dir).sort()).toEqual([dead, deep].sort());
    expect([existsSync(dead), existsSync(deep), existsSync(live), existsSync(other)]).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });

  it('are gone after the next droidbus process starts on that data directory', async () => {
    const dead = path.join(home.dir, `.settings.json.${deadPid()}.0badc0de.tmp`);
    writeFileSync(dead, '{"half":');
    const r = await runCli(['trust', '--list'], { env: { DROIDBUS_HOME: home.dir } });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(dead)).toBe(false);
  });
});
