/**
 * Evidence: none — what the `sim stats` control shows of the last intent; how `am` reads an intent is
 * cited in intent.ts.
 */
import type { Device } from '../device.js';
import type { Intent } from './intent.js';

/** Remembers the last intent `am` was given, as plain data (`sim stats` shows it as `last_intent`). */
export function recordIntent(dev: Device, command: string, intent: Intent): void {
  dev.stats.lastIntent = {
    command,
    action: intent.action,
    data: intent.data,
    categories: [...intent.categories],
    component: intent.component === null ? null : `${intent.component.pkg}/${intent.component.cls}`,
    pkg: intent.pkg,
    extras: Object.fromEntries([...intent.extras].map(([k, v]) => [k, { type: v.type, value: v.value }])),
  };
}
