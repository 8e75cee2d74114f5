/**
 * The last requests each device's network capture saw (`network.exchange` events), kept so a crash
 * can show what the app asked for just before it died: "POST api/auth → 500, then the crash".
 */
import type { EventOf } from '../../bus/registry.js';
import type { CrashWire } from '../../bus/messages/logcat.js';
import { exchangeLine } from '../../util/exchange-line.js';

/** Requests kept per device. */
const KEPT = 50;
/** How far before a crash a request counts as "just before" it. */
export const BEFORE_CRASH_MS = 60_000;
/** Requests shown beside a crash at most. */
const SHOWN = 5;

interface Seen {
  startedAt: number;
  line: string;
}

export class RecentRequests {
  private readonly byDevice = new Map<string, Seen[]>();

  add(e: EventOf<'network.exchange'>): void {
    const list = this.byDevice.get(e.device) ?? [];
    list.push({ startedAt: Date.parse(e.entry.at), line: exchangeLine(e.entry) });
    list.splice(0, Math.max(0, list.length - KEPT));
    this.byDevice.set(e.device, list);
  }

  /** The lines of the requests started in the minute before `at` (host epoch ms), oldest first. */
  before(device: string | null, at: number): string[] {
    const list = device === null ? undefined : this.byDevice.get(device);
    return (list ?? [])
      .filter((r) => r.startedAt <= at && r.startedAt >= at - BEFORE_CRASH_MS)
      .slice(-SHOWN)
      .map((r) => r.line);
  }

  /** `crash` with the requests before it, when a capture saw any. */
  beside(crash: CrashWire): CrashWire {
    const lines = this.before(crash.device, crash.received_at);
    return lines.length > 0 ? { ...crash, requests_before: lines } : crash;
  }
}
