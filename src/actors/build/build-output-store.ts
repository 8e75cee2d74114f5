/**
 * Each build's log tail and diagnostics, kept as `<data dir>/build-logs/<id>.json` so
 * `get_build_log` and `get_build_errors` still answer for the last build after its process ended.
 * Bounded: at most MAX_LOG_LINES lines of at most MAX_LINE_CHARS each, the parser's diagnostic cap,
 * and only the newest KEEP_BUILDS builds' files.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { buildDiagnosticSchema, type BuildDiagnosticWire } from '../../bus/messages/build.js';
import { writeFileAtomic } from '../../store/atomic.js';
import { dataDirPath } from '../../store/data-dir.js';
import { logger } from '../../util/log.js';

const log = logger('build-output');

/** Lines of a build's output kept (get_build_log's maximum). */
export const MAX_LOG_LINES = 2000;
/** A longer output line is cut here. */
export const MAX_LINE_CHARS = 4000;
/** Builds whose output files are kept. */
export const KEEP_BUILDS = 20;

const storedSchema = z.object({
  id: z.string(),
  total_lines: z.number().int(),
  log: z.array(z.string()),
  diagnostics: z.array(buildDiagnosticSchema),
  what_went_wrong: z.array(z.string()),
});
export type StoredBuildOutput = z.infer<typeof storedSchema>;

function dir(): string {
  return path.join(dataDirPath(), 'build-logs');
}

function fileOf(id: string): string {
  return path.join(dir(), `${id.replace(/[^0-9a-z-]/gi, '')}.json`);
}

/** Writes one build's output and drops the files of builds older than the newest KEEP_BUILDS. */
export function saveBuildOutput(output: StoredBuildOutput): void {
  try {
    mkdirSync(dir(), { recursive: true, mode: 0o700 });
    writeFileAtomic(fileOf(output.id), JSON.stringify(output) + '\n', 0o600);
  } catch (err) {
    log.warn('could not keep the build output', { id: output.id, error: (err as Error).message });
    return;
  }
  try {
    const files = readdirSync(dir())
      .filter((f) => f.endsWith('.json'))
      .map((f) => ({ f, t: statSync(path.join(dir(), f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of files.slice(KEEP_BUILDS)) {
      rmSync(path.join(dir(), f), { force: true });
    }
  } catch (err) {
    log.debug('pruning build outputs failed', { error: (err as Error).message });
  }
}

/** A build's kept output, or null when it is gone (or never was kept). */
export function loadBuildOutput(id: string): StoredBuildOutput | null {
  try {
    const parsed = storedSchema.safeParse(JSON.parse(readFileSync(fileOf(id), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Picks the diagnostics a caller asked for. */
export function selectDiagnostics(
  all: readonly BuildDiagnosticWire[],
  includeWarnings: boolean,
): BuildDiagnosticWire[] {
  return all.filter((d) => d.severity === 'error' || (includeWarnings && d.severity === 'warning'));
}
