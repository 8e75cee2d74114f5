/**
 * The notification tools' device side: listing (`dumpsys notification --noredact`), and opening or
 * dismissing one through the UI — the shade is opened (`cmd statusbar expand-notifications`), the
 * notification's row is found on a fresh capture by its title and text, and tapped (open) or swiped
 * away (dismiss). Only a key the device lists right now is acted on.
 */
import { READS, readCommand } from '../../../device/reads.js';
import type { Device } from '../../../device/device.js';
import { BusError } from '../../../bus/errors.js';
import type { NotificationEntry } from '../../../bus/messages/extras.js';
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import { shArgv } from '../../../adb/shell-command.js';
import { sleep } from '../../../util/sleep.js';
import type { HandlerContext } from '../../actor.js';
import { parseNotificationDump } from '../../../device/parsers/notification-dump.js';
import type { Capture } from '../ui/ui-capture.js';
import { swipeArgs, tapArgs } from '../ui/ui-input.js';
import type { Argv } from '../ui/ui-input.js';
import { displayOf, type UiNode, type UiTree } from '../../../device/ui-dump/ui-types.js';

const SYSTEMUI = 'com.android.systemui';
/** How long the shade may take to show the notification's row. */
const SHADE_WAIT_MS = 4_000;
/** How long a dismissed (or opened, auto-cancel) notification may take to leave the list. */
const SETTLE_DISMISS_MS = 3_000;
const SETTLE_OPEN_MS = 1_500;

async function readNotifications(device: Device, signal: AbortSignal): Promise<NotificationEntry[]> {
  const out = await device.exec(readCommand(READS.notifications), {
    signal,
    timeoutMs: 30_000,
    maxBytes: 32 * 1024 * 1024,
  });
  return parseNotificationDump(out.toString('utf8'));
}

/** `device.notifications`. */
export async function listNotifications(
  device: Device,
  p: PayloadOf<'device.notifications'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.notifications'>> {
  const all = (await readNotifications(device, ctx.signal)).filter(
    (n) => p.package === undefined || n.package === p.package,
  );
  return { notifications: all.slice(0, p.limit), total: all.length, truncated: all.length > p.limit };
}

function norm(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function subtree(tree: UiTree, node: UiNode): UiNode[] {
  const out: UiNode[] = [];
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    out.push(n);
    for (const c of n.children) {
      const child = tree.nodes[c];
      if (child) {
        stack.push(child);
      }
    }
  }
  return out;
}

/** The clickable row that shows the notification's title (and text, when it has one), or why there is none. */
export function findNotificationRow(
  tree: UiTree,
  n: Pick<NotificationEntry, 'title' | 'text'>,
): { row: UiNode } | { problem: string } {
  const title = n.title !== null && norm(n.title) !== '' ? norm(n.title) : null;
  const text = n.text !== null && norm(n.text) !== '' ? norm(n.text) : null;
  const needle = title ?? text;
  if (needle === null) {
    return { problem: 'it has no title or text to find it by in the shade' };
  }
  const screen = displayOf(tree);
  const screenWidth = Math.max(1, screen.right - screen.left);
  const shows = (node: UiNode, value: string): boolean =>
    norm(node.text) === value || norm(node.content_desc).includes(value);
  const rows = new Map<number, UiNode>();
  for (const node of tree.nodes) {
    if (!shows(node, needle)) {
      continue;
    }
    let cur: UiNode | undefined = node;
    while (cur !== undefined) {
      const wide = cur.bounds.right - cur.bounds.left >= screenWidth * 0.5;
      if ((cur.clickable || cur.long_clickable) && wide) {
        rows.set(cur.id, cur);
        break;
      }
      cur = cur.parent >= 0 ? tree.nodes[cur.parent] : undefined;
    }
  }
  let candidates = [...rows.values()];
  const inShade = candidates.filter((r) => r.package === SYSTEMUI);
  if (inShade.length > 0) {
    candidates = inShade;
  }
  if (title !== null && text !== null && candidates.length > 1) {
    const both = candidates.filter((r) => subtree(tree, r).some((x) => shows(x, text)));
    if (both.length > 0) {
      candidates = both;
    }
  }
  if (candidates.length === 0) {
    return { problem: `no row showing "${needle.slice(0, 80)}" is on screen` };
  }
  if (candidates.length > 1) {
    return {
      problem: `${candidates.length} rows show "${needle.slice(0, 80)}"; droidbus will not guess which one is meant`,
    };
  }
  return { row: candidates[0]! };
}

async function run(device: Device, argv: Argv, ran: Argv[], signal: AbortSignal): Promise<void> {
  const { serial } = device;
  const result = await device.shell(shArgv(argv), { signal, timeoutMs: 30_000 });
  ran.push(argv);
  if (result.exitCode !== null && result.exitCode !== 0) {
    throw new BusError(
      'FAILED',
      `\`${argv.join(' ')}\` failed on ${serial} (exit ${result.exitCode}): ${(result.stderr || result.stdout).trim().slice(0, 300)}`,
    );
  }
}

function unwrap(result: ReturnType<typeof tapArgs>): Argv {
  if (!result.ok) {
    throw new BusError('FAILED', result.error.message);
  }
  return result.value;
}

/** `device.act_on_notification`: opens or dismisses a listed notification through the shade. */
export async function actOnNotification(
  device: Device,
  p: PayloadOf<'device.act_on_notification'>,
  capture: () => Promise<Capture>,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.act_on_notification'>> {
  const { serial } = device;
  const listed = await readNotifications(device, ctx.signal);
  const target = listed.find((n) => n.key === p.key);
  if (target === undefined) {
    throw new BusError(
      'NOT_FOUND',
      `no notification with key ${p.key} is listed on ${serial} now; call list_notifications for the current keys`,
    );
  }
  if (p.action === 'dismiss' && !target.clearable) {
    throw new BusError(
      'FAILED',
      `${p.key} is ${target.ongoing ? 'ongoing' : 'not clearable'}: the user cannot swipe it away either; its app must cancel it`,
    );
  }
  const ran: Argv[] = [];
  await run(device, ['cmd', 'statusbar', 'expand-notifications'], ran, ctx.signal);
  let found: ReturnType<typeof findNotificationRow> = { problem: 'the shade did not open' };
  const deadline = Date.now() + SHADE_WAIT_MS;
  try {
    for (;;) {
      const cap = await capture();
      found = findNotificationRow(cap.tree, target);
      if ('row' in found || Date.now() >= deadline) {
        break;
      }
      await sleep(300, ctx.signal);
    }
    if (!('row' in found)) {
      throw new BusError(
        'FAILED',
        `could not find the notification "${target.title ?? target.text ?? p.key}" in the shade on ${serial}: ${found.problem}. Take a screenshot to see the shade, or act on it with ui_tap_element.`,
      );
    }
    const row = found.row;
    const cy = row.center.y;
    if (p.action === 'open') {
      await run(device, unwrap(tapArgs(row.center.x, cy)), ran, ctx.signal);
    } else {
      const x1 = Math.round(row.bounds.left + (row.bounds.right - row.bounds.left) * 0.3);
      const x2 = Math.max(x1 + 1, row.bounds.right - 1);
      await run(device, unwrap(swipeArgs(x1, cy, x2, cy, 250)), ran, ctx.signal);
    }
  } finally {
    // Leave the screen as it was: an opened notification has usually closed the shade already.
    await run(device, ['cmd', 'statusbar', 'collapse'], ran, ctx.signal).catch(() => undefined);
  }
  // System UI animates the row away and cancels the notification a moment later: poll briefly.
  const settleBy = Date.now() + (p.action === 'dismiss' ? SETTLE_DISMISS_MS : SETTLE_OPEN_MS);
  let stillListed = true;
  for (;;) {
    stillListed = (await readNotifications(device, ctx.signal)).some((n) => n.key === p.key);
    if (!stillListed || Date.now() >= settleBy) {
      break;
    }
    await sleep(250, ctx.signal);
  }
  if (p.action === 'dismiss' && stillListed) {
    throw new BusError(
      'FAILED',
      `swiped the notification "${target.title ?? p.key}" on ${serial}, but it is still listed (the shade may have moved); call list_notifications and try again`,
    );
  }
  return {
    key: p.key,
    package: target.package,
    title: target.title,
    done:
      p.action === 'open'
        ? `Opened the notification "${target.title ?? target.text ?? p.key}" from ${target.package}${stillListed ? ' (it is still listed: it does not cancel itself when opened)' : ''}`
        : `Dismissed the notification "${target.title ?? target.text ?? p.key}" from ${target.package}`,
    still_listed: stillListed,
    commands: ran,
  };
}
