/** Who did something in a debug session, in the words its timeline uses. */
import type { Origin } from '../../bus/origin.js';

/** `agent claude-code (session 1a2b3c4d, standalone)`, `the user at the host`, `the app`. */
export function describeActor(origin: Origin | null): string {
  if (origin === null) {
    return 'the app';
  }
  switch (origin.kind) {
    case 'agent':
      return `agent ${origin.client_name ?? 'unknown client'} (session ${origin.session_id.slice(0, 8)}${origin.standalone ? ', standalone' : ''})`;
    case 'host':
      return 'the user at the droidbus host';
    case 'host_quit':
      return 'the droidbus host quitting';
    case 'actor':
      return `droidbus (${origin.address})`;
    case 'cli':
      return 'the droidbus command line';
    default: {
      const never: never = origin;
      return String(never);
    }
  }
}
