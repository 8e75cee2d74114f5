import { z } from 'zod';

/**
 * Who asked for something: recorded with builds (origin, cancelled_by), installs and agent actions
 * in the data files, and carried on the bus as it is (`src/bus/origin.ts`).
 */
export const originSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('agent'),
    session_id: z.string().max(200),
    client_name: z.string().max(200).nullable(),
    standalone: z.boolean(),
  }),
  /** The person at the host (its page or its command line). */
  z.object({ kind: z.literal('host') }),
  /** The host quitting. */
  z.object({ kind: z.literal('host_quit') }),
  z.object({ kind: z.literal('actor'), address: z.string().max(300) }),
  z.object({ kind: z.literal('cli') }),
]);
export type Origin = z.infer<typeof originSchema>;
