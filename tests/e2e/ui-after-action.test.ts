/**
 * Issue 34, item 2: every UI action answers with the screen it left — the new screen_hash (good
 * for the next expect_screen_hash) and a compact change summary — and `then` waits for a text
 * after the action, so a form is one call per field. Checked against the sim's own state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeviceWorld } from '../helpers/device-world.js';
import type { DeviceWorld } from '../helpers/device-world.js';

const SAMPLE = 'com.droidbus.sample';

let world: DeviceWorld;
let serial: string;

interface After {
  screen_hash: string;
  changed: boolean;
  summary: string;
  appeared: string[];
  disappeared: string[];
  changed_elements: string[];
  focused: string | null;
  keyboard: boolean;
  app_package: string | null;
}
interface Row {
  tree_path: string;
  resource_id?: string;
}

beforeAll(async () => {
  // A long reuse window: what is tested is that a fresh capture is reused, not how fast CI is.
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 40, logcatRate: 0 }, [], {
    DROIDBUS_REUSE_CAPTURE_MS: '60000',
  });
  serial = world.serials[0]!;
});
afterAll(async () => world?.stop());

async function openLogin(): Promise<{ rows: Row[]; hash: string }> {
  await world.shell(serial, `am force-stop ${SAMPLE}; am start -W -n ${SAMPLE}/.LoginActivity`);
  const r = await world.call('get_ui_hierarchy', { device_serial: serial });
  expect(r.isError, r.text).toBe(false);
  // A read names the screen's title (the app bar's text) on its first line.
  expect(r.structured['title']).toBe('Droidbus Sample');
  expect(r.text.split('\n')[0]).toContain('· "Droidbus Sample"');
  return { rows: r.structured['rows'] as Row[], hash: r.structured['screen_hash'] as string };
}

function byId(rows: Row[], id: string): string {
  const row = rows.find((r) => r.resource_id === id || r.resource_id?.endsWith(`:id/${id}`));
  expect(row, `no element with id ${id}`).toBeDefined();
  return row!.tree_path;
}

describe('an action answers with the screen it left', () => {
  it('fills a form and signs in in three calls, each answer naming the new screen', async () => {
    const { rows, hash } = await openLogin();
    const user = await world.call('ui_fill_input', {
      device_serial: serial,
      tree_path: byId(rows, 'username'),
      text: 'ada',
      expect_screen_hash: hash,
    });
    expect(user.isError, user.text).toBe(false);
    const afterUser = user.structured['after'] as After;
    expect(afterUser.changed).toBe(true);
    expect(afterUser.screen_hash).not.toBe(hash);
    expect(afterUser.changed_elements.join(' ')).toMatch(/text →ada|text .*→ada/);
    expect(afterUser.focused).toContain(byId(rows, 'username'));
    expect(user.text).toContain(`Screen now ${afterUser.screen_hash}`);

    // The hash the answer gave is the screen's: acting on it is not refused, and the fresh
    // capture behind it is reused instead of dumping again before the action.
    const dumpsBefore = (await world.simStats(serial)).dumps;
    const pass = await world.call('ui_fill_input', {
      device_serial: serial,
      tree_path: byId(rows, 'password'),
      text: 'analytical',
      expect_screen_hash: afterUser.screen_hash,
    });
    expect(pass.isError, pass.text).toBe(false);
    expect((await world.simStats(serial)).dumps - dumpsBefore).toBe(1);
    const afterPass = pass.structured['after'] as After;
    // A masked field says how much was typed, never dots that read as its text.
    expect(afterPass.changed_elements.join(' ')).toContain('filled (10 characters, hidden)');
    expect(pass.text, pass.text).not.toContain('••••');

    const tap = await world.call('ui_tap_element', {
      device_serial: serial,
      tree_path: byId(rows, 'sign_in'),
      expect_screen_hash: afterPass.screen_hash,
      then: 'welcome, ada',
    });
    expect(tap.isError, tap.text).toBe(false);
    expect(tap.structured['then']).toMatchObject({ text: 'welcome, ada', satisfied: true });
    const afterTap = tap.structured['after'] as After;
    expect(afterTap.appeared.join(' ')).toMatch(/Welcome, ada/);
    expect(afterTap.disappeared.length).toBeGreaterThan(0);
    // Ids are marked as ids, shown text is quoted: the form's container is #login_form.
    expect(afterTap.disappeared).toContain('#login_form');
    expect(afterTap.appeared).toContain('"Welcome, ada"');
    expect(tap.text).toMatch(/Then: "welcome, ada" showed after \d+ ms/);
    // The device agrees: the welcome screen is what uiautomator sees now.
    expect(await world.shell(serial, 'uiautomator dump /dev/tty')).toMatch(/Welcome, ada/);
    // The answer stays small: no tree, a few named elements.
    expect(tap.text.length).toBeLessThan(900);
  });

  it('says when the text `then` waited for never showed, and the action still counts as done', async () => {
    await openLogin();
    const key = await world.call('send_ui_key', {
      device_serial: serial,
      key: 'TAB',
      then: 'no such text anywhere',
    });
    expect(key.isError, key.text).toBe(false);
    expect(key.structured['then']).toMatchObject({ satisfied: false });
    expect(key.text).toContain('did not show within 10 s');
    expect((key.structured['after'] as After).screen_hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('`then` is met only by the next screen: text already on an unchanged screen does not count', async () => {
    const { rows } = await openLogin();
    const title = (rows as (Row & { text?: string })[]).find((r) => r.text === 'Droidbus Sample');
    expect(title, 'the app bar title row').toBeDefined();
    // Tapping a plain text changes nothing: its own text, there before and after, is not success.
    const still = await world.call('ui_tap_element', {
      device_serial: serial,
      tree_path: title!.tree_path,
      then: 'Droidbus Sample',
    });
    expect(still.isError, still.text).toBe(false);
    expect(still.structured['then']).toMatchObject({ satisfied: false, screen_unchanged: true });
    expect(still.text).toContain('Then: the screen did not change within 10 s of the action');
    expect((still.structured['after'] as After).changed).toBe(false);
    // A checkbox toggled changes the screen: its own text, there before and after, now meets it.
    for (const [id, text] of [
      ['username', 'ada'],
      ['password', 'analytical'],
    ] as const) {
      const filled = await world.call('ui_fill_input', {
        device_serial: serial,
        tree_path: byId(rows, id),
        text,
      });
      expect(filled.isError, filled.text).toBe(false);
    }
    const tapTo = async (id: string, then: string): Promise<Record<string, unknown>> => {
      const screen = await world.call('get_ui_hierarchy', { device_serial: serial });
      const r = await world.call('ui_tap_element', {
        device_serial: serial,
        tree_path: byId(screen.structured['rows'] as Row[], id),
        then,
      });
      expect(r.isError, r.text).toBe(false);
      return r.structured;
    };
    expect((await tapTo('sign_in', 'Welcome, ada'))['then']).toMatchObject({ satisfied: true });
    expect((await tapTo('open_details', 'Details for item'))['then']).toMatchObject({ satisfied: true });
    const toggled = await tapTo('favourite', 'Favourite');
    expect(toggled['then']).toMatchObject({ satisfied: true, screen_unchanged: false });
    expect((toggled['after'] as After).changed_elements.join(' ')).toMatch(/Favourite/);
  });

  it('answers a launch and a restart with the screen they left, its title first', async () => {
    await world.shell(serial, `am force-stop ${SAMPLE}; input keyevent HOME`);
    const launched = await world.call('launch_app', { device_serial: serial, package: SAMPLE });
    expect(launched.isError, launched.text).toBe(false);
    const after = launched.structured['after'] as After & { title: string | null };
    expect(after.app_package).toBe(SAMPLE);
    expect(after.title).toBe('Droidbus Sample');
    expect(launched.text).toContain(`Screen now ${after.screen_hash} ("Droidbus Sample")`);
    // The hash is the screen's: an action that expects it is not refused.
    const key = await world.call('send_ui_key', {
      device_serial: serial,
      key: 'TAB',
      expect_screen_hash: after.screen_hash,
    });
    expect(key.isError, key.text).toBe(false);
    const restarted = await world.call('restart_app', {
      device_serial: serial,
      package: SAMPLE,
      allow_foreign_package: true,
    });
    expect(restarted.isError, restarted.text).toBe(false);
    expect((restarted.structured['after'] as After).app_package).toBe(SAMPLE);
  });

  it('says the screen stayed the same when an action changed nothing', async () => {
    await openLogin();
    await world.call('get_ui_hierarchy', { device_serial: serial });
    const r = await world.call('hide_soft_keyboard', { device_serial: serial });
    expect(r.isError, r.text).toBe(false);
    const after = r.structured['after'] as After;
    expect(after.changed).toBe(false);
    expect(after.summary).toMatch(/^same screen/);
  });
});
