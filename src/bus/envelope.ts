import { z } from 'zod';
import { wireErrorSchema } from './errors.js';
import { originSchema } from './origin.js';

/**
 * The envelopes that carry bus traffic, as a discriminated union on `kind`. The same shapes travel
 * over MessagePorts (structured clone) and, as JSON lines, over the host's socket, where every
 * arriving envelope is checked against these schemas and its payload against the registry.
 */

const id = z.string().min(1).max(100);

export const requestEnvelope = z.object({
  kind: z.literal('request'),
  id,
  type: z.string().max(100),
  payload: z.unknown(),
  /** Absolute deadline, epoch ms. */
  deadline: z.number(),
  origin: originSchema,
});

export const responseEnvelope = z.discriminatedUnion('ok', [
  z.object({ kind: z.literal('response'), id, ok: z.literal(true), value: z.unknown() }),
  z.object({ kind: z.literal('response'), id, ok: z.literal(false), error: wireErrorSchema }),
]);

export const progressEnvelope = z.object({
  kind: z.literal('progress'),
  id,
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().max(1000).optional(),
});

export const cancelEnvelope = z.object({
  kind: z.literal('cancel'),
  id,
  reason: z.string().max(500).optional(),
});

export const eventEnvelope = z.object({
  kind: z.literal('event'),
  topic: z.string().max(100),
  payload: z.unknown(),
});

export const subscribeEnvelope = z.object({
  kind: z.literal('subscribe'),
  topics: z.array(z.string().max(100)).max(100),
});

export const unsubscribeEnvelope = z.object({
  kind: z.literal('unsubscribe'),
  topics: z.array(z.string().max(100)).max(100),
});

export type RequestEnvelope = z.infer<typeof requestEnvelope>;
export type ResponseEnvelope = z.infer<typeof responseEnvelope>;
export type ProgressEnvelope = z.infer<typeof progressEnvelope>;
export type CancelEnvelope = z.infer<typeof cancelEnvelope>;
export type EventEnvelope = z.infer<typeof eventEnvelope>;
export type SubscribeEnvelope = z.infer<typeof subscribeEnvelope>;
export type UnsubscribeEnvelope = z.infer<typeof unsubscribeEnvelope>;

/** What a client sends to the bus. */
export const clientEnvelope = z.discriminatedUnion('kind', [
  requestEnvelope,
  cancelEnvelope,
  subscribeEnvelope,
  unsubscribeEnvelope,
]);
export type ClientEnvelope = z.infer<typeof clientEnvelope>;

/** What the bus sends to a client. */
export const serverEnvelope = z.union([responseEnvelope, progressEnvelope, eventEnvelope]);
export type ServerEnvelope = ResponseEnvelope | ProgressEnvelope | EventEnvelope;

/** Progress as the requester sees it. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}
