import { z } from 'zod';
import { defineEvent } from '../contract.js';

/** Events of the runtime itself. Domains add theirs in their own files. */
export const coreEvents = {
  /** An actor changed state (starting, started, stopping, stopped, crashed). */
  'actor.state': defineEvent(
    z.object({
      address: z.string(),
      state: z.enum(['starting', 'started', 'stopping', 'stopped', 'crashed']),
      reason: z.string().optional(),
    }),
  ),
};
