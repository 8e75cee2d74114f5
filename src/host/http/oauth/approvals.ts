import { randomBytes, randomInt } from 'node:crypto';
import { APPROVAL_TTL_MS, MAX_PENDING_APPROVALS } from './oauth-policy.js';

/** An authorization request waiting for the user. */
export interface PendingApproval {
  /** Unguessable: the consent page polls with it. */
  id: string;
  /** The 2-digit number the page shows and the user types into `droidbus approve`. */
  code: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
  redirectUriGiven: boolean;
  state: string | undefined;
  codeChallenge: string;
  resource: string;
  createdAt: number;
  status: 'pending' | 'approved' | 'denied';
}

/** What the user sees of a pending approval in `droidbus approve`. */
export interface PendingView {
  code: string;
  client_id: string;
  client_name: string;
  redirect_host: string;
  age_s: number;
}

/** Thrown when too many consent pages wait at once. */
export class TooManyPendingError extends Error {}

function hostOf(uri: string): string {
  try {
    return new URL(uri).host;
  } catch {
    return '?';
  }
}

/**
 * Number-match approvals: each authorization request gets a 2-digit code (10-99, unique among the
 * waiting ones) shown on its consent page; the user approves it by typing that code into
 * `droidbus approve CODE` on the host's machine. The page's browser cannot approve itself, and a
 * code is meaningless without the page that shows it. Requests wait at most APPROVAL_TTL_MS.
 */
export class ApprovalQueue {
  private readonly pending = new Map<string, PendingApproval>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Queues a request and returns it with its id and code. */
  create(request: Omit<PendingApproval, 'id' | 'code' | 'createdAt' | 'status'>): PendingApproval {
    this.sweep();
    if (this.pending.size >= MAX_PENDING_APPROVALS) {
      throw new TooManyPendingError(
        `${MAX_PENDING_APPROVALS} authorization requests are already waiting for approval; try again later`,
      );
    }
    const taken = new Set([...this.pending.values()].map((p) => p.code));
    let code: string;
    do {
      code = String(randomInt(10, 100));
    } while (taken.has(code));
    const approval: PendingApproval = {
      ...request,
      id: randomBytes(18).toString('base64url'),
      code,
      createdAt: this.now(),
      status: 'pending',
    };
    this.pending.set(approval.id, approval);
    return approval;
  }

  /** A request by its page id, or undefined when unknown or expired. */
  get(id: string): PendingApproval | undefined {
    this.sweep();
    return this.pending.get(id);
  }

  /** Removes a request (its code was handed out, or it ended). */
  take(id: string): void {
    this.pending.delete(id);
  }

  /** The user's decision on the waiting request with this code; null when none has it. */
  decide(code: string, approve: boolean): PendingApproval | null {
    this.sweep();
    const match = [...this.pending.values()].find((p) => p.code === code && p.status === 'pending');
    if (!match) {
      return null;
    }
    match.status = approve ? 'approved' : 'denied';
    return match;
  }

  /** The requests still waiting for a decision. */
  list(): PendingView[] {
    this.sweep();
    const now = this.now();
    return [...this.pending.values()]
      .filter((p) => p.status === 'pending')
      .map((p) => ({
        code: p.code,
        client_id: p.clientId,
        client_name: p.clientName,
        redirect_host: hostOf(p.redirectUri),
        age_s: Math.round((now - p.createdAt) / 1000),
      }));
  }

  private sweep(): void {
    const cutoff = this.now() - APPROVAL_TTL_MS;
    for (const [id, p] of this.pending) {
      if (p.createdAt <= cutoff) {
        this.pending.delete(id);
      }
    }
  }
}

/** The redirect host of a pending approval, for messages. */
export function redirectHostOf(approval: PendingApproval): string {
  return hostOf(approval.redirectUri);
}
