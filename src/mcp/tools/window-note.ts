import { z } from 'zod';
import type { ResponseOf } from '../../bus/registry.js';
import type { ToolContext } from '../define-tool.js';

/** A window as get_ui_hierarchy names it. */
const windowRefSchema = z.object({ title: z.string(), package: z.string().nullable(), kind: z.string() });

/** What get_ui_hierarchy adds from the window list: the window it read and what covers the app. */
export const windowFactsSchema = {
  captured_window: windowRefSchema
    .nullable()
    .describe('The window the capture shows (the focused one), or null when the window list is unavailable'),
  covering: z
    .array(windowRefSchema)
    .describe('Visible system dialogs, the shade or the keyboard above the app, top-most first'),
};

type Windows = ResponseOf<'windows.list'>;
type WindowEntry = Windows['windows'][number];

function ref(w: WindowEntry): z.infer<typeof windowRefSchema> {
  return { title: w.title, package: w.package, kind: w.kind };
}

/** The device's window list beside a capture; null when it cannot be read (the capture still counts). */
export async function windowsBeside(ctx: ToolContext, serial: string): Promise<Windows | null> {
  try {
    return await ctx.bus.request('windows.list', { serial }, { signal: ctx.signal });
  } catch {
    return null;
  }
}

/** The captured window, what covers the app, and a sentence for the model ('' when nothing covers it). */
export function windowFacts(w: Windows | null): {
  captured_window: z.infer<typeof windowRefSchema> | null;
  covering: z.infer<typeof windowRefSchema>[];
  note: string;
} {
  if (w === null) {
    return { captured_window: null, covering: [], note: '' };
  }
  const captured = w.windows.find((x) => x.focused) ?? w.system_dialog ?? w.app_window ?? null;
  const appAt = w.app_window === null ? w.windows.length : w.windows.indexOf(w.app_window);
  const covering = w.windows.filter(
    (x, i) =>
      i < appAt &&
      x.visible &&
      (x.kind === 'system_dialog' || x.kind === 'notification_shade' || x.kind === 'input_method') &&
      (x.frame === null || (x.frame.right > x.frame.left && x.frame.bottom > x.frame.top)),
  );
  const parts: string[] = [];
  if (captured !== null) {
    parts.push(`captured window: ${captured.title}${captured.package ? ` (${captured.package})` : ''}`);
  }
  for (const c of covering) {
    parts.push(
      c.kind === 'input_method'
        ? `the keyboard (${c.package ?? '?'}) is open over ${w.app_window?.package ?? 'the app'}`
        : `${c.kind === 'notification_shade' ? 'the notification shade' : `a system dialog "${c.title}" (${c.package ?? '?'})`} covers ${w.app_window?.package ?? 'the app'}`,
    );
  }
  return {
    captured_window: captured === null ? null : ref(captured),
    covering: covering.map(ref),
    note: covering.length > 0 ? parts.join('; ') : '',
  };
}
