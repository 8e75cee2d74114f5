/**
 * A profile device's model starts from its recording (issue 55): what the model answers about focus,
 * packages and processes agrees with the recorded answers. The recorded bytes are real captures
 * (tests/fixtures/*, SOURCES.md beside each).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { READS, readArgv } from '../../device/reads.js';
import { loadProfile, writeProfile, type AnswerToWrite } from '../../profile/profile-format.js';
import { tempDir } from '../../../tests/helpers/paths.js';
import { runOn } from './collect-io.js';
import { createSimDevice } from '../control/index.js';
import { profileIdentity } from './profile-replay.js';

const fixture = (rel: string): Buffer =>
  readFileSync(new URL(`../../../tests/fixtures/${rel}`, import.meta.url));
const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

function answer(read: (typeof READS)[keyof typeof READS], stdout: Buffer, pkg?: string): AnswerToWrite {
  return {
    read: read.name,
    argv: readArgv(read, pkg === undefined ? {} : { package: pkg }),
    stdout,
    stderr: Buffer.alloc(0),
    exitCode: 0,
  };
}

function deviceOf(answers: AnswerToWrite[]): ReturnType<typeof createSimDevice> {
  const tmp = tempDir('droidbus-profile-seed-');
  dirs.push(tmp);
  const dir = path.join(tmp.dir, 'p');
  writeProfile(
    dir,
    {
      recorded_at: '2026-12-07T00:00:00Z',
      droidbus_version: 'test',
      description: 'test',
      packages: [],
      redactions: [],
    },
    answers,
  );
  const profile = loadProfile(dir);
  return createSimDevice({ identity: profileIdentity(profile, '127.0.0.1:5999'), profile, logcatRate: 0 });
}

describe('a profile device agrees with its recording', () => {
  it('focuses what the recorded window dump focused, and runs and installs that app', async () => {
    const d = deviceOf([
      answer(READS.windows, fixture('windows/focus-mms.txt')),
      answer(READS.uiDump, fixture('ui/launcher-pixel.xml')),
    ]);
    // `dumpsys window displays` is not recorded: the model answers it, from the recording.
    const displays = (await runOn(d, 'dumpsys window displays')).stdout;
    expect(displays).toContain('mCurrentFocus=Window{');
    expect(displays).toMatch(
      /mCurrentFocus=Window\{\S+ u0 com\.android\.mms\/com\.android\.mms\.ui\.ConversationList\}/,
    );
    expect((await runOn(d, 'pm list packages com.android.mms')).stdout).toBe('package:com.android.mms\n');
    expect((await runOn(d, 'pidof com.android.mms')).stdout).toMatch(/^\d+\n$/);
  });

  it('takes the focused app behind a system window from the focused-app line', async () => {
    const d = deviceOf([
      answer(READS.windows, fixture('windows/focus-statusbar.txt')),
      answer(READS.uiDump, fixture('ui/launcher-pixel.xml')),
    ]);
    expect((await runOn(d, 'dumpsys window displays')).stdout).toContain(
      'u0 longbin.helloworld/longbin.helloworld.HelloWorldActivity}',
    );
  });

  it('runs an app its recorded meminfo measured, under the recorded pid, and lists it installed', async () => {
    const d = deviceOf([
      answer(READS.meminfo, fixture('logcat/dumpsys-meminfo-launcher3.txt'), 'com.android.launcher3'),
    ]);
    // The capture's header: ** MEMINFO in pid 21936 [com.android.launcher3] **
    expect((await runOn(d, 'pidof com.android.launcher3')).stdout).toBe('21936\n');
    expect((await runOn(d, 'pm list packages com.android.launcher3')).stdout).toBe(
      'package:com.android.launcher3\n',
    );
    expect((await runOn(d, 'dumpsys activity processes')).stdout).toContain(
      '21936:com.android.launcher3/u0a',
    );
  });

  it('installs the package a recorded per-package read was asked about', async () => {
    const d = deviceOf([
      answer(READS.exitInfo, fixture('logcat/dumpsys-exit-info-firetv.txt'), 'com.eurosport.player'),
    ]);
    expect((await runOn(d, 'pm path com.eurosport.player')).stdout).toMatch(
      /^package:\/data\/app\/.+\/base\.apk\n$/,
    );
  });

  it('keeps a recorded log of more than 1 MiB whole when the profile did not record logcat -g', async () => {
    // Log lines in threadtime's layout whose messages do not compress (random hex), 1.5 MB in all.
    const lines: string[] = [];
    for (let i = 0, bytes = 0; bytes < 1_500_000; i++) {
      const line = `12-07 04:00:00.${String(i % 1000).padStart(3, '0')}  4242  4242 I Upload  : chunk ${i} ${randomBytes(48).toString('hex')}`;
      lines.push(line);
      bytes += line.length + 1;
    }
    const d = deviceOf([answer(READS.logDump, Buffer.from(lines.join('\n') + '\n'))]);
    const dumped = (await runOn(d, 'logcat -d -b main')).stdout
      .split('\n')
      .filter((l) => l.includes(' Upload  : '));
    expect(dumped).toHaveLength(lines.length);
    expect(dumped[0]).toContain('chunk 0 ');
    expect((await runOn(d, 'logcat -g -b main')).stdout).toMatch(/^main: ring buffer is 2 MiB/);
  });
});
