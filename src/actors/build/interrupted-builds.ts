/**
 * Builds whose droidbus process died mid-build (kill -9, a crash, the machine's power) never reach
 * the history: the process that would have recorded them is gone. Their build lock's owner file
 * stays behind, naming the build; the next process that reads the history records each such build
 * as failed, interrupted, and removes its stale lock.
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { BuildRecord } from '../../bus/messages/build.js';
import { appendHistory, readHistory } from '../../store/build-history.js';
import { dataDirPath } from '../../store/data-dir.js';
import { logger } from '../../util/log.js';
import { isAlive, readOwnerFile, type BuildLockHolder } from './build-lock.js';

const log = logger('build');

/** The history record of a build its process did not live to record. */
export function interruptedRecord(holder: BuildLockHolder, now = Date.now()): BuildRecord {
  const started = Date.parse(holder.started_at);
  return {
    id: holder.build_id,
    project_root: holder.project_root,
    task: holder.task,
    requested_task: holder.task,
    variant: null,
    module: null,
    origin: holder.origin ?? { kind: 'actor', address: 'build' },
    cancelled_by: null,
    pid: holder.pid,
    started_at: holder.started_at,
    ended_at: new Date(now).toISOString(),
    duration_ms: Number.isFinite(started) ? Math.max(0, now - started) : 0,
    result: 'failed',
    reason: `interrupted: the droidbus process that ran it (pid ${holder.pid}) ended before the build finished`,
    timed_out: false,
    exit_code: null,
    signal: null,
    failed_tasks: [],
    diagnostics: { errors: 0, warnings: 0, infos: 0, dropped: 0 },
    output_truncated: true,
    log_lines: 0,
    apks: [],
    mapping_files: [],
    gradle_version: null,
    agp_version: null,
    java_home: null,
    provenance: { git: null, git_reason: 'the build was interrupted' },
  };
}

/** Records every build whose process died holding its lock; returns their ids. */
export async function recordInterruptedBuilds(): Promise<string[]> {
  const dir = path.join(dataDirPath(), 'build-locks');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.owner.json'));
  } catch {
    return [];
  }
  const recorded: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const holder = readOwnerFile(file);
    if (holder === null || holder.pid === process.pid || isAlive(holder.pid)) {
      continue;
    }
    if (!readHistory().some((r) => r.id === holder.build_id)) {
      await appendHistory(interruptedRecord(holder));
      recorded.push(holder.build_id);
      log.info('recorded a build whose process died as interrupted', {
        build: holder.build_id,
        pid: holder.pid,
      });
    }
    rmSync(file, { force: true });
    rmSync(file.replace(/\.owner\.json$/, '.lock'), { recursive: true, force: true });
  }
  return recorded;
}
