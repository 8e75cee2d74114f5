/**
 * The flows actor: `flows.run`, a Maestro flow run on devices (issue 59). It reads the flow — a file
 * inside the project (symlinks resolved, as every project read) or the text given — and every flow
 * it runs, refuses what it cannot run before anything runs (src/flows/maestro-flow.ts), picks the
 * devices among those adb lists online, and runs one sequence per device at once through the device
 * actors (src/flows/flow-runner.ts), as the requester: launching and stopping apps meet the package
 * scope there, whoever asked. Screenshots go to `<data dir>/flow-runs/<run>/<device>/`.
 */
import { randomUUID } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fail } from '../../bus/errors.js';
import { MAX_FLOW_BYTES } from '../../bus/messages/flows.js';
import type { PayloadOf, ResponseOf } from '../../bus/registry.js';
import { runFlowOn } from '../../flows/flow-runner.js';
import { FlowError, loadFlow, type Flow, type ReadFlowFile } from '../../flows/maestro-flow.js';
import { readProjectFile } from '../../project/project-files.js';
import { inspectProject } from '../../project/project-model.js';
import { dataPath } from '../../store/data-dir.js';
import { defineActor, type HandlerContext } from '../actor.js';

/** The schemes read of each project root, and when (FlowsState). */
type SchemesRead = Map<string, { at: number; schemes: string[] }>;

/**
 * The URI schemes the project's manifests declare (its apps' own links, libraries' merged in): what
 * openLink may open besides http(s). None without a project. Read again at most every few seconds:
 * a flow run right after another (or refused BUSY) does not inspect the project again.
 */
async function declaredSchemes(root: string | null, read: SchemesRead): Promise<string[]> {
  if (root === null) {
    return [];
  }
  const cached = read.get(root);
  if (cached !== undefined && Date.now() - cached.at < SCHEMES_TTL_MS) {
    return cached.schemes;
  }
  const model = await inspectProject(root);
  const schemes = [...new Set(model.modules.flatMap((m) => m.manifest?.schemes ?? []))];
  read.set(root, { at: Date.now(), schemes });
  return schemes;
}

const SCHEMES_TTL_MS = 5_000;

/** Runs whose screenshots are kept; older run folders are removed when a run starts. */
const KEPT_RUNS = 20;

/** A flow file of the project, as runFlow names it. */
function projectReader(root: string | null): ReadFlowFile {
  return async (file) => {
    if (root === null) {
      throw new FlowError(`${file}: no project is open, so no flow file can be read (give the flow's text)`);
    }
    const r = await readProjectFile(root, file, { maxBytes: MAX_FLOW_BYTES });
    if (!r.ok) {
      throw new FlowError(`${file}: ${r.reason}`);
    }
    if (r.truncated) {
      throw new FlowError(`${file}: more than ${MAX_FLOW_BYTES / 1024} KB, too large for a flow`);
    }
    return { text: r.text, path: r.path };
  };
}

/** The devices a run is on: those named, else the first `count` online, else the one online. */
async function devicesFor(p: PayloadOf<'flows.run'>, ctx: HandlerContext): Promise<string[]> {
  const { devices } = await ctx.bus.request('devices.list', {}, { signal: ctx.signal });
  const online = devices
    .filter((d) => d.state === 'device')
    .map((d) => d.serial)
    .sort();
  if (p.serials !== undefined) {
    const missing = p.serials.filter((s) => !online.includes(s));
    if (missing.length > 0) {
      throw fail.invalid(
        `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not online; online: ${online.join(', ') || 'none'}`,
      );
    }
    return [...new Set(p.serials)];
  }
  if (p.count !== undefined) {
    if (online.length < p.count) {
      throw fail.invalid(
        `${p.count} devices asked for, ${online.length} online (${online.join(', ') || 'none'})`,
      );
    }
    return online.slice(0, p.count);
  }
  if (online.length !== 1) {
    throw fail.invalid(
      online.length === 0
        ? 'no device is online'
        : `${online.length} devices are online (${online.join(', ')}): name them (device_serials) or say how many (device_count)`,
    );
  }
  return online;
}

/** A new run's folder; the oldest beyond KEPT_RUNS go. */
async function runFolder(): Promise<string> {
  const base = dataPath('flow-runs');
  const names = await readdir(base).catch(() => [] as string[]);
  const dated = await Promise.all(
    names.map(async (n) => ({ n, at: (await stat(path.join(base, n)).catch(() => null))?.mtimeMs ?? 0 })),
  );
  for (const old of dated.sort((a, b) => b.at - a.at).slice(KEPT_RUNS - 1)) {
    await rm(path.join(base, old.n), { recursive: true, force: true });
  }
  return path.join(base, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`);
}

/** The actor's state: the devices a flow runs on now (two flows on one device would interleave their taps), and the schemes read. */
interface FlowsState {
  running: Set<string>;
  schemes: SchemesRead;
}

async function run(
  p: PayloadOf<'flows.run'>,
  { running, schemes }: FlowsState,
  ctx: HandlerContext,
): Promise<ResponseOf<'flows.run'>> {
  if ((p.path === undefined) === (p.yaml === undefined)) {
    throw fail.invalid("give the flow's file (path) or its text (yaml), one of them");
  }
  const read = projectReader(p.root);
  let flow;
  try {
    const first = p.path !== undefined ? await read(p.path) : { text: p.yaml!, path: 'flow.yaml' };
    flow = await loadFlow(
      first.text,
      p.path ?? 'flow.yaml',
      read,
      p.env,
      await declaredSchemes(p.root, schemes),
    );
  } catch (err) {
    throw err instanceof FlowError ? fail.invalid(`the flow cannot run: ${err.message}`) : err;
  }
  if (flow.commands.length === 0) {
    throw fail.invalid('the flow has no commands');
  }
  const serials = await devicesFor(p, ctx);
  const taken = serials.filter((s) => running.has(s));
  if (taken.length > 0) {
    throw fail.busy(`a flow is already running on ${taken.join(', ')}; run this one when it has finished`);
  }
  serials.forEach((s) => running.add(s));
  try {
    return await runOn(p, flow, serials, ctx);
  } finally {
    serials.forEach((s) => running.delete(s));
  }
}

async function runOn(
  p: PayloadOf<'flows.run'>,
  flow: Flow,
  serials: string[],
  ctx: HandlerContext,
): Promise<ResponseOf<'flows.run'>> {
  const outDir = await runFolder();
  const total = flow.commands.length * serials.length;
  let done = 0;
  const started = Date.now();
  const devices = await runFlowOn({
    bus: ctx.bus,
    flow,
    serials,
    outDir,
    lookupTimeoutMs: p.lookup_timeout_ms,
    scope: p.scope,
    signal: ctx.signal,
    onCommand: (serial, command) =>
      ctx.progress({ progress: done++, total, message: `${serial}: ${command.index}. ${command.describe}` }),
  });
  const passed = devices.filter((d) => d.passed).length;
  return {
    flow: { name: flow.name, app_id: flow.appId, commands: flow.commands.length, variables: flow.variables },
    out_dir: outDir,
    wall_ms: Date.now() - started,
    passed,
    failed: devices.length - passed,
    devices,
  };
}

export default defineActor({
  kind: 'flows',
  concurrency: 8,
  start: (): FlowsState => ({ running: new Set(), schemes: new Map() }),
  handlers: {
    'flows.run': (p, state, ctx) => run(p, state, ctx),
  },
});
