import path from 'node:path';
import type { RetraceOutcome } from '../../bus/messages/retrace.js';
import { readHistory } from '../../store/build-history.js';
import { dataDirPath } from '../../store/data-dir.js';
import { readInstallRecords } from '../../store/installed-builds.js';
import { outputMappings } from '../../project/output-mappings.js';
import { keepMapping, keptMappingPath, readKeptMappings } from '../../store/mappings.js';
import type { KeptMapping } from '../../store/mappings.js';
import { defineActor } from '../actor.js';
import type { HandlerContext } from '../actor.js';
import { createPool, type TaskPool } from '../pool.js';
import { matchMapping, notRetraced } from './retrace-match.js';
import type { BuiltApkRef } from './retrace-match.js';
import { deviceApk } from '../device-apk.js';
import type { RetraceResults, RetraceTask } from './retrace-task.js';

function builtApks(): BuiltApkRef[] {
  return readHistory().flatMap((b) =>
    b.apks.map((a) => ({
      build_id: b.id,
      sha256: a.sha256,
      module: a.module ?? b.module,
      variant: a.variant ?? b.variant,
    })),
  );
}

interface State {
  pool: TaskPool<RetraceTask, RetraceResults>;
}

/** The mapping with `mapId` in the project's build outputs, kept (by its hash) so it outlives the next build. */
async function outputMapping(
  root: string,
  mapId: string,
): Promise<{ mapping: KeptMapping; where: string } | null> {
  const found = (await outputMappings(root)).filter((m) => m.map_id === mapId);
  if (found.length !== 1) {
    return null; // none, or several files claiming one id: nothing is guessed
  }
  const m = found[0]!;
  const mapping = await keepMapping(m.path, {
    build_id: null,
    project_root: root,
    module: m.module_dir === '' ? null : `:${m.module_dir.replaceAll('/', ':')}`,
    variant: m.variant,
  });
  return { mapping, where: path.relative(root, m.path).split(path.sep).join('/') };
}

async function retrace(
  state: State,
  trace: string,
  device: string | null,
  pkg: string | null,
  root: string | null,
  ctx: HandlerContext,
): Promise<RetraceOutcome> {
  let decision;
  try {
    decision = await matchMapping(trace, device, pkg, {
      mappings: readKeptMappings(),
      builtApks: builtApks(),
      installs: readInstallRecords(),
      deviceApk: () => deviceApk(device!, pkg!, ctx.signal),
      ...(root !== null ? { outputMapping: (id: string) => outputMapping(root, id) } : {}),
    });
  } catch (err) {
    return notRetraced(
      trace,
      device,
      'unavailable',
      `droidbus could not ask ${device} which APK is installed: ${(err as Error).message}`,
    );
  }
  if (!decision.ok) {
    return notRetraced(trace, device, decision.status, decision.reason);
  }
  const mapping = decision.mapping;
  const task: RetraceTask = {
    op: 'retrace',
    mappingPath: keptMappingPath(mapping.sha256),
    trace,
    cacheDir: path.join(dataDirPath(), 'mappings', 'cache'),
  };
  const result = await state.pool.run(task, { signal: ctx.signal });
  if (!result.ok) {
    return notRetraced(
      trace,
      device,
      'failed',
      `the kept mapping ${mapping.sha256.slice(0, 12)}… could not be used: ${result.error.message}`,
    );
  }
  if (result.op !== 'retrace') {
    return notRetraced(trace, device, 'failed', 'the retrace pool answered the wrong task');
  }
  const build = mapping.build_id ? `build ${mapping.build_id}` : 'a kept build';
  const where = [mapping.module, mapping.variant].filter(Boolean).join(' ');
  return {
    status: 'retraced',
    trace: result.result.text,
    mapping_line: `Deobfuscated with the R8 mapping of ${build}${where ? ` (${where})` : ''}, map id ${mapping.map_id ?? 'none'}, ${decision.how}.`,
    build_id: mapping.build_id,
    module: mapping.module,
    variant: mapping.variant,
    map_id: mapping.map_id,
    mapping_sha256: mapping.sha256,
    matched_by: decision.matched_by,
    device,
    reason: null,
  };
}

/**
 * The retrace actor: decides which kept R8 mapping deobfuscates a crash (by map id, the device's
 * APK hash, or droidbus's install record — never a guess) and retraces it in a piscina pool, in
 * TypeScript, with no JVM. Indexes are cached in memory per pool thread and on disk by mapping hash.
 */
export default defineActor({
  kind: 'retrace',
  concurrency: 4,
  start: (): State => ({
    pool: createPool<RetraceTask, RetraceResults>({
      module: new URL('./retrace-worker.js', import.meta.url),
      name: 'retrace',
      maxThreads: 2,
      idleTimeoutMs: 120_000,
    }),
  }),
  async stop(state) {
    await state.pool.destroy();
  },
  handlers: {
    'retrace.crash': (p, state, ctx) => retrace(state, p.trace, p.device, p.package, p.root ?? null, ctx),
  },
});
