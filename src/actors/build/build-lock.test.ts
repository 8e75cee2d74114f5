import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDataHome } from '../../../tests/helpers/data-home.js';
import { acquireBuildLock, buildLockPath, type BuildLockHolder } from './build-lock.js';

const homeDir = useTempDataHome('droidbus-build-lock-');

const holder = (over: Partial<BuildLockHolder> = {}): BuildLockHolder => ({
  pid: process.pid,
  project_root: '/projects/app',
  build_id: 'b20250101-000000-aaaaaa',
  task: 'assembleDebug',
  started_at: new Date().toISOString(),
  ...over,
});

describe('the build lock', () => {
  it('refuses a second build of the project while it is held, naming the holder pid, and frees on release', async () => {
    const first = await acquireBuildLock(holder());
    expect(first.ok).toBe(true);
    const second = await acquireBuildLock(holder({ build_id: 'b20250101-000000-bbbbbb' }));
    expect(second).toMatchObject({ ok: false, held: true, holder: { pid: process.pid } });
    expect(!second.ok && second.reason).toContain(`another droidbus process (pid ${process.pid})`);
    expect(!second.ok && second.reason).toContain('task assembleDebug');

    const other = await acquireBuildLock(holder({ project_root: '/projects/other' }));
    expect(other.ok).toBe(true);

    if (first.ok) {
      await first.release();
    }
    const third = await acquireBuildLock(holder({ build_id: 'b20250101-000000-cccccc' }));
    expect(third.ok).toBe(true);
    for (const l of [other, third]) {
      if (l.ok) {
        await l.release();
      }
    }
  });

  it('takes over at once a lock whose holder process is gone', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
    const lock = buildLockPath('/projects/app');
    mkdirSync(lock, { recursive: true });
    writeFileSync(lock.replace(/\.lock$/, '.owner.json'), JSON.stringify(holder({ pid: gone })));
    const taken = await acquireBuildLock(holder());
    expect(taken.ok).toBe(true);
    if (taken.ok) {
      await taken.release();
    }
  });

  it('refuses with the reason, rather than building unlocked, when the data directory cannot hold the lock', async () => {
    // A data directory below a regular file cannot be created, whoever runs the test.
    writeFileSync(path.join(homeDir(), 'file'), '');
    process.env['DROIDBUS_HOME'] = path.join(homeDir(), 'file', 'home');
    const r = await acquireBuildLock(holder());
    expect(r).toMatchObject({ ok: false, held: false, holder: null });
    expect(!r.ok && r.reason).toMatch(/cannot create the build lock folder .*ENOTDIR/);
  });
});
