/**
 * The session tools' answers: the list, one session's timeline, its UI steps as a Maestro flow,
 * and two sessions compared. Each reads the files as the journal left them (after what is queued
 * has been written), never changes them.
 */
import type { PayloadOf, ResponseOf } from '../../bus/registry.js';
import { SESSION_LIMITS } from '../../bus/messages/sessions.js';
import { fail } from '../../bus/errors.js';
import type { SessionFile } from '../../store/formats/debug-session.js';
import { readIndex, readSessionFile } from '../../store/debug-sessions.js';
import { exportSession } from '../../flows/maestro-export.js';
import type { SessionJournal } from './session-journal.js';
import { summarize } from './session-model.js';
import { compareSessions, defaultPair } from './session-compare.js';
import { listSessions, sessionDetail } from './session-views.js';

export class SessionReads {
  constructor(
    private readonly journal: SessionJournal,
    /** The devices whose logcat is streamed (crashes are recorded only from those). */
    private readonly streaming: ReadonlySet<string>,
  ) {}

  list(p: PayloadOf<'sessions.list'>): ResponseOf<'sessions.list'> {
    return listSessions(readIndex(summarize).sessions, p, Date.now(), [...this.streaming].sort());
  }

  async get(p: PayloadOf<'sessions.get'>): Promise<ResponseOf<'sessions.get'>> {
    const s = await this.session(p.session_id);
    const detail = sessionDetail(s, p, Date.now(), this.streaming.has(s.device));
    if ('error' in detail) {
      throw fail.invalid(detail.error);
    }
    return detail;
  }

  async export(p: PayloadOf<'sessions.export'>): Promise<ResponseOf<'sessions.export'>> {
    const s = await this.session(p.session_id);
    return { session_id: s.id, package: s.package, ...exportSession(s) };
  }

  async compare(p: PayloadOf<'sessions.compare'>): Promise<ResponseOf<'sessions.compare'>> {
    if ((p.from === undefined) !== (p.to === undefined)) {
      throw fail.invalid(
        'pass both from and to, or neither (then the newest working session is compared with the first later crashing one)',
      );
    }
    await this.journal.idle();
    let from = p.from;
    let to = p.to;
    let chosenBy: string | null = null;
    if (from === undefined || to === undefined) {
      const pair = defaultPair(readIndex(summarize).sessions);
      if ('error' in pair) {
        throw fail.notFound(pair.error);
      }
      ({ from, to, chosenBy } = pair);
    }
    if (from === to) {
      throw fail.invalid('from and to are the same session; pass two different sessions');
    }
    const a = readSessionFile(from);
    const b = readSessionFile(to);
    if (a === null || b === null) {
      throw fail.notFound(missing(a === null ? from : to));
    }
    return compareSessions(a, b, chosenBy, Date.now());
  }

  /** One session as its file holds it once queued changes are written; NOT_FOUND saying why. */
  private async session(id: string): Promise<SessionFile> {
    await this.journal.idle();
    const s = readSessionFile(id);
    if (s === null) {
      throw fail.notFound(missing(id));
    }
    return s;
  }
}

function missing(id: string): string {
  return `no debug session ${id} (unknown, or pruned: droidbus keeps the newest ${SESSION_LIMITS.maxSessions}); call list_debug_sessions for the sessions there are`;
}
