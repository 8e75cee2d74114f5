import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../tests/helpers/paths.js';
import { gitProvenance, parsePorcelainZ } from './git-provenance.js';

const repo = tempDir('droidbus-git-');
const plain = tempDir('droidbus-nogit-');
const git = (...args: string[]): string =>
  execFileSync('git', args, {
    cwd: repo.dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@e',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@e',
    },
  });

beforeAll(() => {
  git('init', '-q', '-b', 'feature/login');
  writeFileSync(path.join(repo.dir, 'build.gradle.kts'), 'plugins {}\n');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
});
afterAll(() => {
  repo.remove();
  plain.remove();
});

describe('git provenance of a build', () => {
  it('names the commit and branch, and the changed files of a dirty tree', async () => {
    writeFileSync(path.join(repo.dir, 'build.gradle.kts'), 'plugins { id("x") }\n');
    writeFileSync(path.join(repo.dir, 'new file.kt'), 'fun main() {}\n');
    const r = await gitProvenance(repo.dir);
    expect(r.reason).toBeNull();
    expect(r.git).toEqual({
      commit: git('rev-parse', 'HEAD').trim(),
      branch: 'feature/login',
      dirty: true,
      changed_files: ['build.gradle.kts', 'new file.kt'],
      changed_files_truncated: false,
    });
  });

  it('is null with the reason outside a repository', async () => {
    expect(await gitProvenance(plain.dir)).toEqual({
      git: null,
      reason: 'the project is not in a git repository',
    });
  });

  it('reads renames in porcelain -z output once, by their new path', () => {
    expect(parsePorcelainZ('R  new.kt\0old.kt\0 M app/a.kt\0?? b.kt\0')).toEqual([
      'new.kt',
      'app/a.kt',
      'b.kt',
    ]);
  });
});
