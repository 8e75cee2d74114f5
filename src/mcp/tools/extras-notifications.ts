import { z } from 'zod';
import { limitParam } from '../params.js';
import { deviceResponseOf, responseOf } from '../responses.js';
import { notificationKeySchema, packageNameSchema } from '../../bus/messages/extras.js';
import { defineDeviceTool } from '../define-device-tool.js';

function clip(s: string | null, n = 120): string {
  if (s === null) {
    return '';
  }
  const flat = s.replace(/\s+/g, ' ');
  return flat.length > n ? `${flat.slice(0, n)}…` : flat;
}

export const listNotifications = defineDeviceTool({
  name: 'list_notifications',
  answers: 'device.notifications',
  toolset: 'device-extras',
  kind: 'read',
  title: 'List notifications',
  description:
    "Lists the device's current notifications from `dumpsys notification --noredact`, in the shade's order: package, key (for open_notification and dismiss_notification), title, text, sub-text, post time, ongoing/clearable, channel, importance, category and action labels. Texts are null (redacted: true) on devices that hide them from the shell.",
  input: z.object({
    package: packageNameSchema.optional().describe('Only notifications of this package'),
    limit: limitParam('Notifications', 50, 200),
  }),
  output: deviceResponseOf('device.notifications'),
  async handle(args, ctx) {
    const { serial } = ctx;
    const r = await ctx.ask('device.notifications', {
      limit: args.limit,
      ...(args.package !== undefined ? { package: args.package } : {}),
    });
    const lines = r.notifications.map(
      (n) =>
        `${n.key}  ${n.package}${n.ongoing ? ' [ongoing]' : ''}  "${clip(n.title, 80)}" ${clip(n.text)}${n.redacted ? ' (texts hidden by the device)' : ''}`,
    );
    const head = `${r.total} notification${r.total === 1 ? '' : 's'} on ${serial}${args.package ? ` from ${args.package}` : ''}${r.truncated ? ` (first ${r.notifications.length}; raise limit)` : ''}.`;
    return {
      text: [head, ...lines].join('\n'),
      structured: { device_serial: serial, ...r },
    };
  },
});

const actOutput = z
  .object({ device_serial: z.string() })
  .extend(responseOf('device.act_on_notification').shape);

/** A tool that acts on one listed notification through the shade (open or dismiss). */
function notificationAction(
  action: 'open' | 'dismiss',
  declared: { name: string; kind: 'write' | 'destructive'; title: string; description: string },
) {
  return defineDeviceTool({
    ...declared,
    answers: 'device.act_on_notification',
    toolset: 'device-extras',
    input: z.object({ key: notificationKeySchema }),
    output: actOutput,
    async handle(args, ctx) {
      const r = await ctx.ask('device.act_on_notification', { key: args.key, action });
      return { text: `${r.done} (${ctx.serial})`, structured: { device_serial: ctx.serial, ...r } };
    },
  });
}

export const openNotification = notificationAction('open', {
  name: 'open_notification',
  kind: 'write',
  title: 'Open a notification',
  description:
    'Opens a notification as a person would: pulls down the shade, finds the notification by its title and text on a fresh UI capture, and taps it (its app or activity opens; an auto-cancel notification goes away). Refuses a key that list_notifications does not list right now.',
});

export const dismissNotification = notificationAction('dismiss', {
  name: 'dismiss_notification',
  kind: 'destructive',
  title: 'Dismiss a notification',
  description:
    'Dismisses a notification by swiping its row away in the shade, and checks it is gone. Refuses a key that list_notifications does not list right now, and an ongoing or non-clearable notification (only its app can remove it).',
});

export const notificationTools = [listNotifications, openNotification, dismissNotification];
