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
