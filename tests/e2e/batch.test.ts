/**
 * Issue 34, item 2: `batch` runs a sequence the agent already knows — a form's fields and its
 * submit — in one call, each step exactly as its own tools/call (same arguments check, same
 * policy), stopping at the first failure. Checked against the sim's own screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeviceWorld } from '../helpers/device-world.js';
import type { DeviceWorld } from '../helpers/device-world.js';

const SAMPLE = 'com.droidbus.sample';

let world: DeviceWorld;
let serial: string;

interface Row {
  tree_path: string;
  resource_id?: string;
}
interface Step {
  tool: string;
  is_error: boolean;
  result: Record<string, unknown> | null;
}

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 40, logcatRate: 0 }, [
    '--toolsets',
    'core,ui,device-admin',
  ]);
  serial = world.serials[0]!;
});
afterAll(async () => world?.stop());

async function openLogin(): Promise<Row[]> {
  await world.shell(serial, `am force-stop ${SAMPLE}; am start -W -n ${SAMPLE}/.LoginActivity`);
  const r = await world.call('get_ui_hierarchy', {});
  expect(r.isError, r.text).toBe(false);
  return r.structured['rows'] as Row[];
}

const byId = (rows: Row[], id: string): string => {
  const row = rows.find((r) => r.resource_id === id || r.resource_id?.endsWith(`:id/${id}`));
  expect(row, `no ${id}`).toBeDefined();
  return row!.tree_path;
};

const screen = (): Promise<string> => world.shell(serial, 'uiautomator dump /dev/tty');

describe('batch', () => {
  it('fills a form and signs in in one call, each step answered, the last in full', async () => {
    const rows = await openLogin();
    const r = await world.call('batch', {
      device_serial: serial,
      steps: [
        { tool: 'ui_fill_input', args: { tree_path: byId(rows, 'username'), text: 'ada' } },
        { tool: 'ui_fill_input', args: { tree_path: byId(rows, 'password'), text: 'analytical' } },
        { tool: 'ui_tap_element', args: { tree_path: byId(rows, 'sign_in'), then: 'Welcome, ada' } },
      ],
    });
    expect(r.isError, r.text).toBe(false);
    expect(await screen()).toContain('Welcome, ada');
    const lines = r.text.split('\n');
    // The two fills answer one line each; the tap answers in full (its `then` and the new screen).
    expect(lines[0]).toMatch(/^1\. ui_fill_input: Filled "Username"/);
    // A password field is named by its id, never by the text it shows (dots, or its hint).
    expect(lines[1]).toMatch(/^2\. ui_fill_input: Filled #password \(10 characters, hidden\)/);
    expect(lines[2]).toMatch(/^3\. ui_tap_element: Tapped "Sign in"/);
    expect(r.text).toContain('Then: "Welcome, ada" showed');
    const steps = r.structured['steps'] as Step[];
    expect(steps.map((s) => [s.tool, s.is_error])).toEqual([
      ['ui_fill_input', false],
      ['ui_fill_input', false],
      ['ui_tap_element', false],
    ]);
    // Each step's structured answer is its own call's, the new screen included.
    expect((steps[2]!.result!['after'] as { title: string }).title).toBe('Home');
  });

  it('stops at the first failing step with its error code, and runs none after it', async () => {
    const rows = await openLogin();
    const r = await world.call('batch', {
      steps: [
        { tool: 'ui_fill_input', args: { tree_path: byId(rows, 'username'), text: 'grace' } },
        { tool: 'ui_tap_element', args: { tree_path: '0.9.9.9' } },
        { tool: 'ui_tap_element', args: { tree_path: byId(rows, 'sign_in') } },
      ],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^1\. ui_fill_input: Filled "Username"/);
    expect(r.text).toMatch(/2\. ui_tap_element failed: .*0\.9\.9\.9/);
    expect(r.text).toContain('The 1 step after it did not run.');
    expect((r.structured['error'] as { code: string }).code).toBe('not_found');
    expect((r.structured['steps'] as Step[]).map((s) => s.is_error)).toEqual([false, true]);
    // The sign-in tap never ran: the login screen is still there, with the name typed.
    const after = await screen();
    expect(after).toContain('Sign in to Droidbus Sample');
    expect(after).toContain('grace');
  });

  it('checks each step as its own call: unknown arguments, unserved tools and nesting are refused', async () => {
    for (const [step, words] of [
      [{ tool: 'launch_app', args: { package: SAMPLE, shell: 'rm -rf /' } }, "unknown argument 'shell'"],
      [{ tool: 'get_memory_info', args: { package: SAMPLE } }, 'toolset, which this server does not serve'],
      [{ tool: 'batch', args: { steps: [] } }, 'batch cannot run as a step'],
      [{ tool: 'no_such_tool' }, "Unknown tool 'no_such_tool'"],
      // The package policy of a direct call holds in a step.
      [{ tool: 'stop_app', args: { package: 'com.android.settings' } }, 'allow_foreign_package'],
    ] as const) {
      const r = await world.call('batch', { steps: [step] });
      expect(r.isError, JSON.stringify(step)).toBe(true);
      expect(r.text).toContain(words);
    }
    const empty = await world.call('batch', { steps: [] });
    expect(empty.isError).toBe(true);
    expect(empty.text).toMatch(/Invalid arguments for batch: .*steps/s);
    const tooMany = await world.call('batch', {
      steps: Array.from({ length: 11 }, () => ({ tool: 'list_devices' })),
    });
    expect(tooMany.isError).toBe(true);
  });
});
