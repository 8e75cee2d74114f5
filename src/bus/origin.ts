/** Who asked: the shape the data files keep (`src/store/formats/origin.ts`), carried as is. */
import { BusError } from './errors.js';
import type { Origin } from '../store/formats/origin.js';

export { originSchema, type Origin } from '../store/formats/origin.js';

/**
 * Only the person at the host decides: the page (origin `host`) and the CLI's control connections
 * (`cli`). Every other origin — an attached agent, an HTTP session, an actor — is refused, whatever
 * it claims: the host sets a session's origin itself (`originFor`).
 */
export function requirePerson(origin: Origin, what: string): void {
  if (origin.kind !== 'host' && origin.kind !== 'cli') {
    throw new BusError(
      'INVALID',
      `only the user ${what}, on the droidbus host's page or with the droidbus CLI; an agent cannot`,
    );
  }
}
