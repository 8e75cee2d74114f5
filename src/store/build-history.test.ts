import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BuildRecord } from '../bus/messages/build.js';
import { useTempDataHome } from '../../tests/helpers/data-home.js';
import { MAX_HISTORY, appendHistory, historyPath, readHistory, recentBuilds } from './build-history.js';

useTempDataHome('droidbus-build-history-');

function record(i: number, root = '/p'): BuildRecord {
  return {
    id: `b20250101-000000-${String(i).padStart(6, '0')}`,
    project_root: root,
    task: 'assembleDebug',
    requested_task: 'assembleDebug',
    variant: null,
    module: null,
    origin: { kind: 'host' },
    cancelled_by: null,
    pid: 1,
    started_at: new Date(1_700_000_000_000 + i).toISOString(),
    ended_at: new Date(1_700_000_000_000 + i).toISOString(),
    duration_ms: 1,
    result: 'success',
    reason: null,
    timed_out: false,
    exit_code: 0,
    signal: null,
    failed_tasks: [],
    diagnostics: { errors: 0, warnings: 0, infos: 0, dropped: 0 },
    output_truncated: false,
    log_lines: 0,
    apks: [],
    mapping_files: [],
    gradle_version: null,
    agp_version: null,
    java_home: null,
    provenance: { git: null, git_reason: 'the project is not in a git repository' },
  };
}

describe('build-history.json', () => {
  it('keeps the newest builds only', async () => {
    for (let i = 0; i < MAX_HISTORY + 5; i++) {
      await appendHistory(record(i));
    }
    const all = readHistory();
    expect(all).toHaveLength(MAX_HISTORY);
    expect(all[0]?.id).toBe(record(5).id);
    expect(all.at(-1)?.id).toBe(record(MAX_HISTORY + 4).id);
  });

  it('loses no record when many builds finish at once (each append holds the data lock)', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => appendHistory(record(i, i % 2 ? '/a' : '/b'))));
    expect(readHistory()).toHaveLength(20);
    expect(recentBuilds('/a', 100)).toHaveLength(10);
    expect(recentBuilds('/a', 3).map((r) => r.project_root)).toEqual(['/a', '/a', '/a']);
  });

  it('skips records it cannot read and keeps them when it rewrites the file', async () => {
    writeFileSync(historyPath(), JSON.stringify({ version: 1, builds: [{ id: 'from-the-future', x: 1 }] }));
    await appendHistory(record(1));
    expect(readHistory().map((r) => r.id)).toEqual([record(1).id]);
    expect(readFileSync(historyPath(), 'utf8')).toContain('from-the-future');
  });
});
