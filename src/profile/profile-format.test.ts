import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  linkSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { READS, readArgv } from '../device/reads.js';
import { type SimDevice, runOn, createSimDevice, profileIdentity } from '../sim/index.js';
import {
  bundledProfileDir,
  bundledProfiles,
  loadProfile,
  MAX_PROFILE_FILE_BYTES,
  MAX_PROFILE_TOTAL_BYTES,
  writeProfile,
  type AnswerToWrite,
} from './profile-format.js';

let dir: string;
let dev: SimDevice | undefined;
afterEach(() => {
  dev?.close();
  dev = undefined;
  if (dir !== undefined) {
    rmSync(dir, { recursive: true, force: true });
  }
});

const META = {
  recorded_at: '2026-12-01T00:00:00.000Z',
  droidbus_version: 'test',
  description: 'a test profile',
  packages: ['com.example'],
  redactions: [],
};

function answer(argv: string[], stdout: string, extra: Partial<AnswerToWrite> = {}): AnswerToWrite {
  return { read: null, argv, stdout: Buffer.from(stdout), stderr: new Uint8Array(0), exitCode: 0, ...extra };
}

function profileWith(answers: AnswerToWrite[]): string {
  dir = mkdtempSync(path.join(tmpdir(), 'droidbus-profile-'));
  const p = path.join(dir, 'p');
  writeProfile(p, META, answers);
  return p;
}

describe('profile files', () => {
  it('writes a folder that loads back with the same bytes, exit codes and stderr', () => {
    const p = profileWith([
      answer(readArgv(READS.wmSize), 'Physical size: 1080x2400\r\n', { read: READS.wmSize.name }),
      answer(['sha256sum', '/x.apk'], '', {
        stderr: Buffer.from('sha256sum: /x.apk: Permission denied\n'),
        exitCode: 1,
      }),
    ]);
    const loaded = loadProfile(p);
    expect(loaded.manifest.commands.map((c) => [c.argv.join(' '), c.exit_code])).toEqual([
      ['wm size', 0],
      ['sha256sum /x.apk', 1],
    ]);
    expect(loaded.answers.get('wm\0size')?.stdout.toString()).toBe('Physical size: 1080x2400\r\n');
    expect(loaded.answers.get('sha256sum\0/x.apk')?.stderr.toString()).toContain('Permission denied');
  });

  it('refuses to write over an existing folder, and leaves no half-written one', () => {
    const p = profileWith([answer(['getprop'], '[a]: [b]\n')]);
    expect(() => writeProfile(p, META, [])).toThrow(/exists/);
    expect(readFileSync(path.join(p, 'manifest.json'), 'utf8')).toContain('getprop');
  });

  it('refuses a profile whose bytes were edited after recording, or that points outside itself', () => {
    const p = profileWith([answer(['getprop'], '[a]: [b]\n')]);
    const manifest = JSON.parse(readFileSync(path.join(p, 'manifest.json'), 'utf8')) as {
      commands: { stdout: string }[];
    };
    writeFileSync(path.join(p, manifest.commands[0]!.stdout), '[a]: [c]\n');
    expect(() => loadProfile(p)).toThrow(/do not match the manifest's sha256/);
    manifest.commands[0]!.stdout = '../../etc/passwd';
    writeFileSync(path.join(p, 'manifest.json'), JSON.stringify(manifest));
    expect(() => loadProfile(p)).toThrow(/outside the profile|not a droidbus device profile/);
  });

  describe('reads nothing outside its folder, and nothing but plain files', () => {
    /** A profile whose `getprop` answer had stderr, its manifest, and a way to rewrite it. */
    function withStderr() {
      const p = profileWith([answer(['getprop'], '[a]: [b]\n', { stderr: Buffer.from('warning\n') })]);
      const manifestPath = path.join(p, 'manifest.json');
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
        commands: { stdout: string; stderr: string; sha256: string; stderr_sha256?: string }[];
      };
      return {
        p,
        manifest,
        cmd: manifest.commands[0]!,
        save: () => writeFileSync(manifestPath, JSON.stringify(manifest)),
      };
    }
    const hostFile = (): string => {
      const f = path.join(dir, 'host-secret.txt');
      writeFileSync(f, 'host secret\n');
      return f;
    };

    it('keeps the stderr hash and refuses a stderr edited after recording', () => {
      const { p, cmd } = withStderr();
      expect(cmd.stderr_sha256).toMatch(/^[0-9a-f]{64}$/);
      writeFileSync(path.join(p, cmd.stderr), 'changed\n');
      expect(() => loadProfile(p)).toThrow(/do not match the manifest's stderr_sha256/);
    });

    it('refuses a stderr that is a symlink to a host file, even with no hash in the manifest', () => {
      const { p, manifest, cmd, save } = withStderr();
      delete cmd.stderr_sha256;
      save();
      rmSync(path.join(p, cmd.stderr));
      symlinkSync(hostFile(), path.join(p, cmd.stderr));
      expect(() => loadProfile(p)).toThrow(/is a symbolic link or lies under one/);
      expect(manifest.commands).toHaveLength(1);
    });

    it("refuses a stdout symlink whose target has the manifest's hash", () => {
      const { p, cmd, save } = withStderr();
      const target = hostFile();
      cmd.sha256 = createHash('sha256').update(readFileSync(target)).digest('hex');
      save();
      rmSync(path.join(p, cmd.stdout));
      symlinkSync(target, path.join(p, cmd.stdout));
      expect(() => loadProfile(p)).toThrow(/is a symbolic link/);
    });

    it('refuses a link to /dev/zero and a FIFO at once, without reading them', () => {
      const { p, cmd } = withStderr();
      rmSync(path.join(p, cmd.stdout));
      symlinkSync('/dev/zero', path.join(p, cmd.stdout));
      expect(() => loadProfile(p)).toThrow(/is a symbolic link/);
      rmSync(path.join(p, cmd.stdout));
      const made = spawnSync('mkfifo', [path.join(p, cmd.stdout)]);
      expect(made.status).toBe(0);
      expect(() => loadProfile(p)).toThrow(/is not a regular file \(a FIFO\)/);
    });

    it('refuses a folder of answers that is a symlink out of the profile, and a file past the size cap', () => {
      const { p, cmd } = withStderr();
      const outside = mkdtempSync(path.join(dir, 'elsewhere-'));
      renameSync(path.join(p, 'out'), path.join(outside, 'out'));
      symlinkSync(path.join(outside, 'out'), path.join(p, 'out'));
      expect(() => loadProfile(p)).toThrow(/lies under one/);
      rmSync(path.join(p, 'out'));
      renameSync(path.join(outside, 'out'), path.join(p, 'out'));
      truncateSync(path.join(p, cmd.stdout), MAX_PROFILE_FILE_BYTES + 1);
      expect(() => loadProfile(p)).toThrow(/over the 67,108,864 a profile's file may hold/);
    });

    it("refuses a hard link to a host file, even one with the manifest's hash (issue 68)", () => {
      const { p, cmd, save } = withStderr();
      const target = hostFile();
      cmd.sha256 = createHash('sha256').update(readFileSync(target)).digest('hex');
      save();
      rmSync(path.join(p, cmd.stdout));
      linkSync(target, path.join(p, cmd.stdout));
      expect(() => loadProfile(p)).toThrow(/has 2 hard links; a profile's files are plain files of its own/);
    });

    it('refuses files each under the per-file cap that pass the total together (issue 68)', () => {
      const each = 50 * 1024 * 1024;
      expect(3 * each).toBeGreaterThan(MAX_PROFILE_TOTAL_BYTES);
      expect(each).toBeLessThan(MAX_PROFILE_FILE_BYTES);
      const p = profileWith(['a', 'b', 'c'].map((k) => answer(['getprop', k], k)));
      const manifestPath = path.join(p, 'manifest.json');
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
        commands: { stdout: string; sha256: string }[];
      };
      const zeros = createHash('sha256').update(Buffer.alloc(each)).digest('hex');
      for (const c of manifest.commands) {
        truncateSync(path.join(p, c.stdout), 0);
        truncateSync(path.join(p, c.stdout), each); // sparse: no disk used
        c.sha256 = zeros;
      }
      writeFileSync(manifestPath, JSON.stringify(manifest));
      expect(() => loadProfile(p)).toThrow(
        /would take the profile's files past the 134,217,728 bytes a profile may hold in all/,
      );
    });
  });

  it('lists the bundled profiles, each of which loads', () => {
    const names = bundledProfiles();
    expect(names.length).toBeGreaterThanOrEqual(4);
    for (const name of names) {
      expect(loadProfile(bundledProfileDir(name)).manifest.commands.length, name).toBeGreaterThan(0);
    }
  });
});

describe('a simulated device answering from a profile', () => {
  function device(p: string): SimDevice {
    const profile = loadProfile(p);
    dev = createSimDevice({
      identity: profileIdentity(profile, '127.0.0.1:7200'),
      logcatRate: 0,
      dumpLatencyMs: 1,
      profile,
    });
    return dev;
  }

  it('answers with the recorded stdout, stderr and exit code, and counts what the model answered', async () => {
    const d = device(
      profileWith([
        answer(['sha256sum', '/x.apk'], '', {
          stderr: Buffer.from('sha256sum: /x.apk: Permission denied\n'),
          exitCode: 1,
        }),
        answer(readArgv(READS.props), '[ro.product.model]: [Recorded 1]\n[ro.build.version.sdk]: [31]\n', {
          read: READS.props.name,
        }),
      ]),
    );
    const r = await runOn(d, 'sha256sum /x.apk');
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'sha256sum: /x.apk: Permission denied\n']);
    expect((await runOn(d, 'getprop')).stdout).toBe(
      '[ro.product.model]: [Recorded 1]\n[ro.build.version.sdk]: [31]\n',
    );
    // The model took the recorded props: one getprop answers as the recording said.
    expect((await runOn(d, 'getprop ro.product.model')).stdout).toBe('Recorded 1\n');
    const stats = JSON.parse((await runOn(d, 'sim stats')).stdout) as { profile: Record<string, unknown> };
    expect(stats.profile).toMatchObject({
      from_profile: 2,
      from_model: 1,
      model_reads: { 'getprop ro.product.model': 1 },
    });
  });

  it('answers a read from the model once a command changed what it reads', async () => {
    const d = device(
      profileWith([
        answer(readArgv(READS.autoRotate), '1\n', { read: READS.autoRotate.name }),
        answer(readArgv(READS.wmSize), 'Physical size: 1440x3120\n', { read: READS.wmSize.name }),
      ]),
    );
    expect((await runOn(d, 'settings get system accelerometer_rotation')).stdout).toBe('1\n');
    await runOn(d, 'settings put system accelerometer_rotation 0');
    expect((await runOn(d, 'settings get system accelerometer_rotation')).stdout).toBe('0\n');
    // wm size was not touched: still the recording.
    expect((await runOn(d, 'wm size')).stdout).toBe('Physical size: 1440x3120\n');
    const stats = JSON.parse((await runOn(d, 'sim stats')).stdout) as { profile: Record<string, unknown> };
    expect(stats.profile).toMatchObject({ from_profile: 2, changes: 1, from_model: 1 });
  });

  it('takes its identity from the recording', () => {
    const profile = loadProfile(bundledProfileDir('pixel-8-pro-android16'));
    expect(profileIdentity(profile, 's')).toMatchObject({
      model: 'Pixel 8 Pro',
      device: 'husky',
      sdk: 36,
      release: '16',
      width: 1344,
      height: 2992,
      density: 480,
    });
  });
});
