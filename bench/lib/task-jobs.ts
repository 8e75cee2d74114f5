/**
 * bench/tasks' jobs: what an agent is asked to do on an Android device, scripted the way a competent
 * agent drives each server's tools (the fewest calls its tools allow, mobile-mcp's batch tool
 * included), each set up through adb beforehand and checked through adb afterwards: the device's
 * state for jobs that change it, the device's own facts for jobs that answer a question.
 */
import { sampleApplicationId } from '../../src/sim/index.js';
import type { Agent } from './agent.js';

export const SAMPLE = 'com.droidbus.sample';
/** The minified build the crash job runs (its crash retraces against the build's mapping). */
export const RELEASE_VARIANT = 'demoRelease';
export const RELEASE_PACKAGE = sampleApplicationId('demo', 'release');
/** The build the install job installs. */
export const DEBUG_VARIANT = 'fullDebug';
export const DEBUG_PACKAGE = sampleApplicationId('full', 'debug');

/** What a job may use of the bench's world, outside the agent. */
export interface World {
  /** `adb -s SERIAL shell CMD`, its stdout (throws when adb fails). */
  shell(cmd: string): Promise<string>;
  /** `adb -s SERIAL ARGS…`. */
  adb(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** The APKs the project's build wrote, absolute, by variant. */
  apks: Record<string, string>;
  /** Runs `fn` after `ms` (the async job's event); cancelled when the job ends. */
  later(ms: number, fn: () => Promise<unknown>): void;
  /** A token unique to this run, for markers the job must find. */
  readonly token: string;
}

/** What an agent of a server does for a job: its answer, the text the check reads. */
export type Drive = (agent: Agent, world: World, device: string) => Promise<string>;

export interface Job {
  name: string;
  /** The job's answer is an image: done when one came back. */
  image?: true;
  setup(world: World): Promise<void>;
  droidbus: Drive;
  peer: Drive;
  /** Null when the job is done, else what is wrong. */
  check(world: World, answer: string): Promise<string | null>;
}

/** The screen as `uiautomator dump` prints it on the device, read by the bench, not by an agent. */
const screen = (w: World): Promise<string> => w.shell('uiautomator dump /dev/tty');

const launchLogin = (w: World): Promise<string> =>
  w.shell(`am force-stop ${SAMPLE}; am start -W -n ${SAMPLE}/.LoginActivity`);

const launchHome = (w: World): Promise<string> =>
  w.shell(`am force-stop ${SAMPLE}; am start -W -n ${SAMPLE}/.HomeActivity --es user ada`);

const needs = (answer: string, ...facts: string[]): string | null => {
  const missing = facts.filter((f) => !answer.includes(f));
  return missing.length === 0 ? null : `the answer does not say ${missing.map((f) => `"${f}"`).join(', ')}`;
};

async function foreground(w: World): Promise<string> {
  const stats = JSON.parse(await w.shell('sim stats')) as { foreground: string };
  return stats.foreground;
}

// ---- mobile-mcp's element list: `@e5 Button text="Sign in" id="…" at=x,y size=WxH …` ----

interface PeerElement {
  line: string;
  ref: string | null;
  x: number;
  y: number;
}

function peerElements(text: string): PeerElement[] {
  const out: PeerElement[] = [];
  for (const line of text.split('\n')) {
    const m = /^(@\S+ )?.* at=(\d+),(\d+) size=(\d+)x(\d+)/.exec(line);
    if (m) {
      out.push({
        line,
        ref: m[1]?.trim() ?? null,
        x: Number(m[2]) + Math.round(Number(m[4]) / 2),
        y: Number(m[3]) + Math.round(Number(m[5]) / 2),
      });
    }
  }
  return out;
}

function peerFind(text: string, needle: string): PeerElement {
  const e = peerElements(text).find((x) => x.line.includes(needle));
  if (!e) {
    throw new Error(`no element with ${needle} in the list`);
  }
  return e;
}

const click = (e: PeerElement) => ({
  name: 'mobile_click_on_screen_at_coordinates',
  arguments: { x: e.x, y: e.y },
});

const list = (a: Agent, device: string) => a.must('mobile_list_elements_on_screen', { device });

// ---- droidbus's screen rows ----

interface Row {
  tree_path: string;
  resource_id?: string;
  label?: string;
}

function rowOf(rows: Row[], id: string): string {
  const row = rows.find((r) => r.resource_id === id || r.resource_id?.endsWith(`:id/${id}`));
  if (!row) {
    throw new Error(`no ${id} on the screen`);
  }
  return row.tree_path;
}

const firstMatch = (structured: Record<string, unknown>): string => {
  const m = (structured['matches'] as Row[] | undefined)?.[0];
  if (!m) {
    throw new Error('nothing matched');
  }
  return m.tree_path;
};

const ITEM = 'Item 25';
const ASYNC_TEXT = 'Sync complete';
const PERMISSION = 'Allow Droidbus Sample to send you notifications?';

export const JOBS: Job[] = [
  {
    name: 'launch the app and read its title',
    async setup(w) {
      await w.shell(`am force-stop ${SAMPLE}; input keyevent KEYCODE_HOME`);
    },
    droidbus: async (a) => (await a.must('launch_app', { package: SAMPLE })).text,
    peer: async (a, _w, device) =>
      (
        await a.must('mobile_batch_commands', {
          device,
          steps: [{ name: 'mobile_launch_app', arguments: { packageName: SAMPLE } }],
          listElementsAtEnd: true,
        })
      ).text,
    async check(w, answer) {
      const fg = await foreground(w);
      return fg.startsWith(SAMPLE + '/') ? needs(answer, 'Droidbus Sample') : `${fg} is in front`;
    },
  },
  {
    name: 'fill the login form and sign in',
    setup: async (w) => void (await launchLogin(w)),
    async droidbus(a) {
      const read = await a.must('get_ui_hierarchy');
      const rows = read.structured['rows'] as Row[];
      return (
        await a.must('ui_fill_input', {
          fields: [
            { field: rowOf(rows, 'username'), text: 'ada' },
            { field: rowOf(rows, 'password'), text: 'analytical' },
          ],
          submit: rowOf(rows, 'sign_in'),
          then: 'Welcome, ada',
        })
      ).text;
    },
    async peer(a, _w, device) {
      const els = (await list(a, device)).text;
      return (
        await a.must('mobile_batch_commands', {
          device,
          steps: [
            click(peerFind(els, 'username')),
            { name: 'mobile_type_keys', arguments: { text: 'ada', submit: false } },
            click(peerFind(els, 'password')),
            { name: 'mobile_type_keys', arguments: { text: 'analytical', submit: false } },
            click(peerFind(els, 'sign_in')),
          ],
          listElementsAtEnd: true,
        })
      ).text;
    },
    async check(w, answer) {
      return (await screen(w)).includes('Welcome, ada')
        ? needs(answer, 'Welcome, ada')
        : 'the home screen is not showing';
    },
  },
  {
    name: `scroll to "${ITEM}" and open it`,
    setup: async (w) => void (await launchHome(w)),
    async droidbus(a) {
      const found = await a.must('ui_scroll_until_element', { text: ITEM });
      return (
        await a.must('ui_tap_element', { tree_path: firstMatch(found.structured), then: 'Details for' })
      ).text;
    },
    async peer(a, _w, device) {
      let els = (await list(a, device)).text;
      for (let i = 0; i < 12 && !els.includes(`"${ITEM}"`); i++) {
        els = (
          await a.must('mobile_batch_commands', {
            device,
            steps: [{ name: 'mobile_swipe_on_screen', arguments: { direction: 'up' } }],
            listElementsAtEnd: true,
          })
        ).text;
      }
      return (
        await a.must('mobile_batch_commands', {
          device,
          steps: [click(peerFind(els, `"${ITEM}"`))],
          listElementsAtEnd: true,
        })
      ).text;
    },
    async check(w, answer) {
      return (await screen(w)).includes('Details for item 25')
        ? needs(answer, 'Item 25')
        : 'item 25 is not open';
    },
  },
  {
    name: 'allow a permission dialog',
    async setup(w) {
      await launchHome(w);
      await w.shell(`sim dialog '${PERMISSION}' '' Allow "Don't allow"`);
    },
    async droidbus(a) {
      const found = await a.must('find_ui_elements', { text: 'Allow' });
      return (await a.must('ui_tap_element', { tree_path: firstMatch(found.structured) })).text;
    },
    async peer(a, _w, device) {
      const els = (await list(a, device)).text;
      return (
        await a.must('mobile_click_on_screen_at_coordinates', {
          device,
          ...click(peerFind(els, 'text="Allow"')).arguments,
        })
      ).text;
    },
    async check(w) {
      const s = await screen(w);
      return s.includes('send you notifications') ? 'the dialog is still showing' : null;
    },
  },
  {
    name: 'take a screenshot',
    image: true,
    setup: async (w) => void (await launchHome(w)),
    droidbus: async (a) => (await a.must('screenshot')).text,
    peer: async (a, _w, device) => (await a.must('mobile_take_screenshot', { device })).text,
    check: async () => null, // done when an image came back (the agent decodes and counts it)
  },
  {
    name: "find the crash's top app frame (deobfuscated)",
    async setup(w) {
      await w.shell(
        `am force-stop ${RELEASE_PACKAGE}; am start -W -n ${RELEASE_PACKAGE}/${SAMPLE}.HomeActivity; sim crash ${RELEASE_PACKAGE} java`,
      );
    },
    droidbus: async (a) =>
      (
        await a.must('batch', {
          steps: [
            { tool: 'start_logcat' },
            { tool: 'get_crash_logs', args: { package: RELEASE_PACKAGE, count: 1, retrace: true } },
          ],
        })
      ).text,
    async peer(a, _w, device) {
      const crashes = (await a.must('mobile_list_crashes', { device })).text;
      const id = /"id"\s*:\s*"([^"]+)"/.exec(crashes)?.[1];
      if (id === undefined) {
        throw new Error(`no crash listed: ${crashes.slice(0, 200)}`);
      }
      return (await a.must('mobile_get_crash', { device, id })).text;
    },
    // The root cause's top frame, as R8's retrace prints it for this build's mapping.
    check: async (_w, answer) => needs(answer, 'PriceUnavailableException', 'PriceBook.priceOf'),
  },
  {
    name: 'install a build and launch it',
    setup: async (w) => void (await w.adb(['uninstall', DEBUG_PACKAGE])),
    droidbus: async (a, w) =>
      (
        await a.must('batch', {
          steps: [
            { tool: 'install_apk', args: { apk_path: w.apks[DEBUG_VARIANT]! } },
            { tool: 'launch_app', args: { package: DEBUG_PACKAGE } },
          ],
        })
      ).text,
    peer: async (a, w, device) =>
      (
        await a.must('mobile_batch_commands', {
          device,
          steps: [
            { name: 'mobile_install_app', arguments: { path: w.apks[DEBUG_VARIANT]! } },
            { name: 'mobile_launch_app', arguments: { packageName: DEBUG_PACKAGE } },
          ],
        })
      ).text,
    async check(w) {
      const installed = await w.shell(`pm path ${DEBUG_PACKAGE}`);
      if (!installed.includes('package:')) {
        return 'not installed';
      }
      const fg = await foreground(w);
      return fg.startsWith(DEBUG_PACKAGE + '/') ? null : `${fg} is in front`;
    },
  },
  {
    name: "find the app's package",
    setup: async () => undefined,
    droidbus: async (a) => (await a.must('list_apps')).text,
    peer: async (a, _w, device) => (await a.must('mobile_list_apps', { device })).text,
    check: async (_w, answer) => needs(answer, SAMPLE),
  },
  {
    name: "read the app's logs since its launch",
    async setup(w) {
      await launchLogin(w);
      await w.shell(`sim log I CartSync 'synced cart ${w.token}'`);
    },
    droidbus: async (a) =>
      (
        await a.must('batch', {
          // The newest 50 lines, as the peer asks for (limit: 50).
          steps: [
            { tool: 'start_logcat' },
            { tool: 'get_logcat_entries', args: { package: SAMPLE, count: 50 } },
          ],
        })
      ).text,
    peer: async (a, _w, device) =>
      (await a.must('mobile_get_device_logs', { device, limit: 50, filter: [`process=${SAMPLE}`] }, 90_000))
        .text,
    check: async (w, answer) => needs(answer, `synced cart ${w.token}`),
  },
  {
    name: 'wait for a text that shows later',
    async setup(w) {
      await launchHome(w);
      w.later(1_500, () => w.shell(`sim dialog '${ASYNC_TEXT}' 'All items are up to date' OK`));
    },
    droidbus: async (a) => (await a.must('wait_for_element', { text: ASYNC_TEXT, timeout_ms: 10_000 })).text,
    async peer(a, _w, device) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const els = (await list(a, device)).text;
        if (els.includes(ASYNC_TEXT) || Date.now() > deadline) {
          return els;
        }
      }
    },
    check: async (_w, answer) => needs(answer, ASYNC_TEXT),
  },
];
