import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile, rename } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openVerified, readProjectFile, resolveApkPath, resolveProjectFile } from './project-files.js';

let base: string;
let root: string;
let outside: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'droidbus-files-'));
  root = path.join(base, 'project');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'app/build/outputs/apk/debug'), { recursive: true });
  await mkdir(path.join(root, 'lib/build/outputs/apk/debug'), { recursive: true });
  await mkdir(path.join(root, 'evil'), { recursive: true });
  await mkdir(path.join(outside, 'outputs/apk/debug'), { recursive: true });
  await writeFile(path.join(root, 'settings.gradle.kts'), 'include(":app")\n');
  await writeFile(path.join(root, 'app/build/outputs/apk/debug/app-debug.apk'), 'APK-BYTES');
  await writeFile(path.join(root, 'app/build/outputs/apk/debug/notes.txt'), 'not an apk');
  await writeFile(path.join(root, 'lib/build/outputs/apk/debug/lib-debug.apk'), 'LIB');
  await writeFile(path.join(outside, 'secret.txt'), 'SECRET');
  await writeFile(path.join(outside, 'outputs/apk/debug/evil.apk'), 'EVIL');
  // A file symlink out, a directory symlink out, and a build directory that is a symlink out.
  await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link-to-secret.txt'));
  await symlink(outside, path.join(root, 'linked-dir'));
  await symlink(outside, path.join(root, 'evil/build'));
  await symlink(
    path.join(outside, 'outputs/apk/debug/evil.apk'),
    path.join(root, 'app/build/outputs/apk/debug/linked.apk'),
  );
  // A symlink that stays inside the project is fine for resources.
  await symlink(path.join(root, 'settings.gradle.kts'), path.join(root, 'settings-alias.kts'));
  await mkdir(path.join(root, 'app/build/outputs/apk/weird.apk'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('resolveProjectFile', () => {
  it('accepts a regular file inside the project and returns its canonical path', async () => {
    const r = await resolveProjectFile(root, 'settings.gradle.kts');
    expect(r).toMatchObject({ ok: true, path: path.join(root, 'settings.gradle.kts') });
    const alias = await resolveProjectFile(root, 'settings-alias.kts');
    expect(alias).toMatchObject({ ok: true, path: path.join(root, 'settings.gradle.kts') });
  });

  it('refuses a file symlink that leads out of the project, naming where it leads', async () => {
    const r = await resolveProjectFile(root, 'link-to-secret.txt');
    expect(r.ok).toBe(false);
    expect(r).toMatchObject({ code: 'outside_project' });
    expect(!r.ok && r.reason).toContain('a symlink leads out');
  });

  it('refuses a path through a symlinked directory that leads out', async () => {
    expect(await resolveProjectFile(root, 'linked-dir/secret.txt')).toMatchObject({
      ok: false,
      code: 'outside_project',
    });
  });

  it('refuses .. paths and absolute paths outside the project, without touching them', async () => {
    expect(await resolveProjectFile(root, '../outside/secret.txt')).toMatchObject({
      ok: false,
      code: 'outside_project',
    });
    expect(await resolveProjectFile(root, path.join(outside, 'secret.txt'))).toMatchObject({
      ok: false,
      code: 'outside_project',
    });
    expect(await resolveProjectFile(root, 'app/../../outside/secret.txt')).toMatchObject({
      ok: false,
      code: 'outside_project',
    });
  });

  it('refuses directories, missing files, empty paths and NUL characters', async () => {
    expect(await resolveProjectFile(root, 'app')).toMatchObject({ ok: false, code: 'not_a_file' });
    expect(await resolveProjectFile(root, 'nope.txt')).toMatchObject({ ok: false, code: 'not_found' });
    expect(await resolveProjectFile(root, '')).toMatchObject({ ok: false, code: 'invalid_path' });
    expect(await resolveProjectFile(root, 'a\0b')).toMatchObject({ ok: false, code: 'invalid_path' });
  });
});

describe('readProjectFile', () => {
  it('cuts a file longer than the limit and says how big it is', async () => {
    const big = path.join(root, 'big.txt');
    await writeFile(big, 'x'.repeat(1000));
    const r = await readProjectFile(root, 'big.txt', { maxBytes: 100 });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.truncated).toBe(true);
      expect(r.size).toBe(1000);
      expect(r.text.startsWith('x'.repeat(100) + '\n[truncated: the file is 1000 bytes;')).toBe(true);
    }
  });

  it('uses 512 KiB as the default limit', async () => {
    await writeFile(path.join(root, 'huge.txt'), Buffer.alloc(600 * 1024, 0x61));
    const r = await readProjectFile(root, 'huge.txt');
    expect(r.ok && r.truncated).toBe(true);
    expect(r.ok && r.text.includes('[truncated: the file is 614400 bytes')).toBe(true);
  });

  it('replaces invalid UTF-8 with U+FFFD and never splits a character at the cut', async () => {
    await writeFile(path.join(root, 'bad.txt'), Buffer.from([0x61, 0xff, 0x62, 0xc3]));
    const bad = await readProjectFile(root, 'bad.txt');
    expect(bad.ok && bad.text).toBe('a\uFFFDb\uFFFD');
    await writeFile(path.join(root, 'utf8.txt'), 'ééé');
    const cut = await readProjectFile(root, 'utf8.txt', { maxBytes: 3 });
    expect(cut.ok && cut.text.split('\n')[0]).toBe('é');
  });

  it('refuses to read through a symlink out of the project', async () => {
    expect(await readProjectFile(root, 'link-to-secret.txt')).toMatchObject({
      ok: false,
      code: 'outside_project',
    });
  });

  it('a file swapped for a symlink between the check and the open is refused', async () => {
    await writeFile(path.join(root, 'race.txt'), 'ok');
    const checked = await resolveProjectFile(root, 'race.txt');
    expect(checked.ok).toBe(true);
    if (!checked.ok) {
      return;
    }
    await rename(path.join(root, 'race.txt'), path.join(base, 'race-moved.txt'));
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'race.txt'));
    const opened = await openVerified(checked.root, checked.path, 'race.txt');
    expect(opened).toMatchObject({ ok: false, code: 'outside_project' });
  });

  it('a directory swapped for a symlink out between the check and the open is refused', async () => {
    await mkdir(path.join(root, 'swap'));
    await writeFile(path.join(root, 'swap/secret.txt'), 'inside');
    const checked = await resolveProjectFile(root, 'swap/secret.txt');
    expect(checked.ok).toBe(true);
    if (!checked.ok) {
      return;
    }
    await rename(path.join(root, 'swap'), path.join(base, 'swap-moved'));
    await symlink(outside, path.join(root, 'swap'));
    const opened = await openVerified(checked.root, checked.path, 'swap/secret.txt');
    expect(opened).toMatchObject({ ok: false, code: 'outside_project' });
  });
});

describe('resolveApkPath', () => {
  it('opens an .apk under an application module build outputs once and the handle reads its bytes', async () => {
    const r = await resolveApkPath(root, ['app'], 'app/build/outputs/apk/debug/app-debug.apk');
    expect(r.ok).toBe(true);
    if (r.ok) {
      try {
        expect(r.moduleDir).toBe('app');
        expect(r.size).toBe(9);
        const data = await r.handle.readFile();
        expect(createHash('sha256').update(data).digest('hex')).toBe(
          createHash('sha256').update('APK-BYTES').digest('hex'),
        );
      } finally {
        await r.handle.close();
      }
    }
  });

  it('accepts the absolute path of the same APK', async () => {
    const r = await resolveApkPath(
      root,
      ['app'],
      path.join(root, 'app/build/outputs/apk/debug/app-debug.apk'),
    );
    expect(r.ok).toBe(true);
    if (r.ok) {
      await r.handle.close();
    }
  });

  it('refuses an APK symlinked from outside the project', async () => {
    expect(await resolveApkPath(root, ['app'], 'app/build/outputs/apk/debug/linked.apk')).toMatchObject({
      ok: false,
      code: 'outside_project',
    });
  });

  it('refuses an APK under a build directory that is a symlink out of the project', async () => {
    expect(
      await resolveApkPath(root, ['app', 'evil'], 'evil/build/outputs/apk/debug/evil.apk'),
    ).toMatchObject({
      ok: false,
      code: 'outside_project',
    });
  });

  it('refuses a .. path that climbs out, a file that is not an .apk, a directory named .apk, and an APK of a non-application module', async () => {
    expect(
      await resolveApkPath(root, ['app'], 'app/build/outputs/../../../../outside/outputs/apk/debug/evil.apk'),
    ).toMatchObject({
      ok: false,
      code: 'outside_project',
    });
    expect(await resolveApkPath(root, ['app'], 'app/build/outputs/apk/debug/notes.txt')).toMatchObject({
      ok: false,
      code: 'not_allowed',
    });
    expect(await resolveApkPath(root, ['app'], 'app/build/outputs/apk/weird.apk')).toMatchObject({
      ok: false,
      code: 'not_a_file',
    });
    const lib = await resolveApkPath(root, ['app'], 'lib/build/outputs/apk/debug/lib-debug.apk');
    expect(lib).toMatchObject({ ok: false, code: 'not_allowed' });
    expect(!lib.ok && lib.reason).toContain('app/build/outputs/');
  });
});
