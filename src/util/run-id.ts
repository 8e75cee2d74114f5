/**
 * This process run's id, shared by its threads: set on the main thread the first time it is asked
 * (the supervisor asks before it starts a worker) and inherited by every worker through its copy of
 * process.env. A worker replaced mid-run finds what its predecessor left under the same id.
 */
import { randomUUID } from 'node:crypto';

const KEY = 'DROIDBUS_RUN_ID';

export function runId(): string {
  const id = process.env[KEY];
  if (id !== undefined && /^[\w-]{1,64}$/.test(id)) {
    return id;
  }
  const made = randomUUID();
  process.env[KEY] = made;
  return made;
}

const ROLE_KEY = 'DROIDBUS_RUN_ROLE';

/**
 * What this process is (`host`, else `mcp`: a standalone session), shared by its threads the same
 * way: a new host adopts what a dead host left (the logcat journal), not what a dead session did.
 */
export function runRole(): string {
  const role = process.env[ROLE_KEY];
  return role !== undefined && /^[a-z]{1,16}$/.test(role) ? role : 'mcp';
}

/** Sets this process's role; call on the main thread before any worker starts. */
export function setRunRole(role: 'host' | 'mcp'): void {
  process.env[ROLE_KEY] = role;
}
