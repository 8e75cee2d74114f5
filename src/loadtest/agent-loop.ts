import type { LoadSession, CallOutcome } from './mcp-session.js';
import type { MixPart } from './options.js';
import type { CallRecorder } from './recorder.js';

/** The app the loop drives: the sample app every simulated device has installed. */
export const SAMPLE_PACKAGE = 'com.droidbus.sample';
const SAMPLE_LABEL = 'Droidbus Sample';
/** The sample project's build the build loop runs. */
export const BUILD_TASK = 'assembleDemoDebug';
/**
 * An iteration lasts at least this long: an agent does not read its log more than twice a second.
 * With captures in the mix (~0.7 s each on the sim) it changes nothing; without, it keeps the loop
 * from spinning.
 */
const MIN_ITERATION_MS = 500;

interface Row {
  tree_path: string;
  resource_id: string;
  text: string;
  content_desc: string;
  package: string;
}

/** What one device's agent loop needs. */
export interface AgentLoopContext {
  session: LoadSession;
  serial: string;
  mix: ReadonlySet<MixPart>;
  recorder: CallRecorder;
  /** True once the run's time is up: the loop ends after the call in flight. */
  stopped: () => boolean;
  /** Simulated devices: BACK may be pressed on any screen (on a real device only inside the sample app). */
  sim: boolean;
  /** The device-admin tools the loop uses are served (and `admin` is in the mix). */
  admin: boolean;
  seed: number;
}

/** A small deterministic generator, so every run makes the same choices. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function rowsOf(outcome: CallOutcome, key: 'rows' | 'matches'): Row[] {
  const rows = outcome.structured[key];
  return Array.isArray(rows) ? (rows as Row[]) : [];
}

function hashOf(outcome: CallOutcome): string | undefined {
  const hash = outcome.structured['screen_hash'];
  return typeof hash === 'string' ? hash : undefined;
}

function byId(rows: Row[], name: string): Row | undefined {
  return rows.find((r) => r.resource_id.endsWith(`:id/${name}`));
}

/**
 * One agent working one device, as an agent loop does: read the screen, find an element, act on
 * it (tap, type), look at it (screenshot), read the log and the crashes — in a loop until the run
 * ends. It taps and types only inside the sample app (and its launcher icon), so on a real device
 * it never touches anything else: there it only reads.
 */
export async function runAgentLoop(ctx: AgentLoopContext): Promise<number> {
  const rnd = random(ctx.seed);
  const call = (name: string, args: Record<string, unknown> = {}): Promise<CallOutcome> =>
    ctx.session.call(name, { device_serial: ctx.serial, ...args }, { recorder: ctx.recorder });
  let iteration = 0;
  let sinceSeq: number | undefined;
  // The first round runs whole, however long it takes (a loaded machine, a short run): every part
  // of the mix is called at least once; after that the loop ends with the call in flight.
  const inner: AgentLoopContext = { ...ctx, stopped: () => iteration > 1 && ctx.stopped() };
  while (!ctx.stopped()) {
    iteration++;
    const started = performance.now();
    if (ctx.mix.has('ui')) {
      await uiStep(inner, call, iteration, rnd);
    }
    if (!inner.stopped() && ctx.mix.has('screenshot') && iteration % 3 === 1) {
      await call('screenshot');
    }
    if (!inner.stopped() && ctx.mix.has('logcat')) {
      const entries = await call('get_logcat_entries', {
        count: 100,
        ...(sinceSeq !== undefined ? { since_seq: sinceSeq } : {}),
      });
      const seqs = (Array.isArray(entries.structured['entries']) ? entries.structured['entries'] : []) as {
        seq?: number;
      }[];
      const newest = seqs.reduce((m, e) => Math.max(m, e.seq ?? -1), -1);
      if (newest >= 0) {
        sinceSeq = newest;
      }
      if (iteration % 2 === 0) {
        await call('get_crash_logs', { count: 5 });
      }
    }
    if (!inner.stopped() && ctx.admin && iteration % 8 === 0) {
      await call('launch_app', { package: SAMPLE_PACKAGE });
    }
    const rest = MIN_ITERATION_MS - (performance.now() - started);
    if (rest > 0 && !inner.stopped()) {
      await new Promise((r) => setTimeout(r, rest));
    }
  }
  return iteration;
}

async function tap(
  call: (name: string, args?: Record<string, unknown>) => Promise<CallOutcome>,
  row: Row | undefined,
  hash: string | undefined,
): Promise<void> {
  if (row) {
    await call('ui_tap_element', {
      tree_path: row.tree_path,
      ...(hash !== undefined ? { expect_screen_hash: hash } : {}),
    });
  }
}

/** Reads the screen and takes one step through the sample app: sign in, open an item, go back. */
async function uiStep(
  ctx: AgentLoopContext,
  call: (name: string, args?: Record<string, unknown>) => Promise<CallOutcome>,
  iteration: number,
  rnd: () => number,
): Promise<void> {
  const list = await call('list_clickable_elements', { limit: 80 });
  if (!list.ok || ctx.stopped()) {
    return;
  }
  const rows = rowsOf(list, 'rows');
  const hash = hashOf(list);
  const user = byId(rows, 'username');
  if (user) {
    // The login screen: fill the user name, type the password, sign in.
    await call('ui_fill_input', {
      tree_path: user.tree_path,
      text: `agent${iteration}`,
      ...(hash !== undefined ? { expect_screen_hash: hash } : {}),
    });
    await tap(call, byId(rows, 'password'), undefined);
    await call('ui_type_text', { text: 'secret' });
    const signIn = await call('find_ui_elements', { resource_id: 'sign_in' });
    await tap(call, rowsOf(signIn, 'matches')[0], hashOf(signIn));
  } else if (byId(rows, 'item_title')) {
    if (ctx.mix.has('logcat') && iteration % 10 === 5) {
      // Now and then the agent hits the bug: the crash lands in logcat for get_crash_logs.
      await tap(call, byId(rows, 'crash'), hash);
    } else {
      const found = await call('find_ui_elements', { text_contains: 'Item ', clickable: true });
      const matches = rowsOf(found, 'matches');
      await tap(call, matches[Math.floor(rnd() * matches.length)], hashOf(found));
    }
  } else if (byId(rows, 'favourite')) {
    await tap(call, byId(rows, 'favourite'), hash);
    const up = await call('find_ui_elements', { content_desc: 'Navigate up' });
    await tap(call, rowsOf(up, 'matches')[0], hashOf(up));
  } else if (rows.some((r) => r.text === SAMPLE_LABEL && r.package !== SAMPLE_PACKAGE)) {
    // A launcher showing the sample app's icon.
    const icon = await call('find_ui_elements', { text: SAMPLE_LABEL, clickable: true });
    await tap(call, rowsOf(icon, 'matches')[0], hashOf(icon));
  } else if (ctx.sim || rows.some((r) => r.package === SAMPLE_PACKAGE)) {
    await call('send_ui_key', { key: 'BACK' });
  }
  if (!ctx.stopped() && iteration % 3 === 0) {
    await call('get_ui_hierarchy', { max_rows: 80 });
  }
}

/**
 * The background build an agent runs while it works on the devices: build the sample project, read
 * its status, errors and log, and build again, until the run ends.
 */
export async function runBuildLoop(options: {
  session: LoadSession;
  recorder: CallRecorder;
  stopped: () => boolean;
  buildMs: number;
}): Promise<{ builds: number; failed: number }> {
  let builds = 0;
  let failed = 0;
  const call = (name: string, args: Record<string, unknown> = {}, timeoutMs?: number): Promise<CallOutcome> =>
    options.session.call(name, args, {
      recorder: options.recorder,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
  while (!options.stopped()) {
    const built = await call('run_gradle_task', { task: BUILD_TASK }, options.buildMs + 120_000);
    builds++;
    if (!built.ok) {
      failed++;
    }
    await call('get_build_status');
    await call('get_build_errors');
    await call('get_build_log', { lines: 100 });
    await new Promise((r) => setTimeout(r, 200));
  }
  return { builds, failed };
}
