import type { AttachedSession } from '../bus/messages/host.js';

/** The most sessions one host serves at once. */
export const MAX_ATTACHED_SESSIONS = 16;

/** The host's attached sessions, in the order they attached. */
export class SessionRegistry {
  private readonly sessions = new Map<string, AttachedSession>();

  constructor(readonly max: number = MAX_ATTACHED_SESSIONS) {}

  get size(): number {
    return this.sessions.size;
  }

  /** Adds a session; false when the registry is full or the id is taken. */
  add(session: AttachedSession): boolean {
    if (this.sessions.size >= this.max || this.sessions.has(session.session_id)) {
      return false;
    }
    this.sessions.set(session.session_id, session);
    return true;
  }

  get(sessionId: string): AttachedSession | undefined {
    return this.sessions.get(sessionId);
  }

  /** Changes a session's client name and version (known once MCP `initialize` arrived). */
  update(sessionId: string, patch: Pick<AttachedSession, 'client_name' | 'client_version'>): boolean {
    const session = this.sessions.get(sessionId);
    if (!session) {
      return false;
    }
    this.sessions.set(sessionId, { ...session, ...patch });
    return true;
  }

  remove(sessionId: string): AttachedSession | undefined {
    const session = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    return session;
  }

  /** Copies of every session, oldest first. */
  list(): AttachedSession[] {
    return [...this.sessions.values()].map((s) => ({ ...s }));
  }
}
