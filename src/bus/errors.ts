import { z } from 'zod';

/**
 * The closed set of error codes that travel on the bus. Frontends map them to the MCP error model:
 * INVALID → an `invalid_argument` tool error (or the `reason` in its details), INTERNAL → a JSON-RPC
 * internal error, everything else → a tool error the model reads (src/mcp/server.ts).
 */
export const ERROR_CODES = [
  'INVALID',
  'NOT_FOUND',
  'BUSY',
  'TIMEOUT',
  'CANCELLED',
  'DEVICE_OFFLINE',
  'UNAVAILABLE',
  'FAILED',
  'CRASHED',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const wireErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** The actor address that failed, when one did. */
  actor: z.string().optional(),
  /** Extra machine-readable facts (holder pid, hint, …). */
  details: z.record(z.string(), z.unknown()).optional(),
});
/** An error as plain data: what crosses threads and sockets. */
export type WireError = z.infer<typeof wireErrorSchema>;

/** The error thrown by bus clients and actor code; `toWire()` turns it into plain data. */
export class BusError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly actor?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'BusError';
  }

  /** Plain data for the wire. */
  toWire(): WireError {
    const wire: WireError = { code: this.code, message: this.message };
    if (this.actor !== undefined) {
      wire.actor = this.actor;
    }
    if (this.details !== undefined) {
      wire.details = this.details;
    }
    return wire;
  }

  /** Rebuilds a BusError from plain data. */
  static fromWire(wire: WireError): BusError {
    return new BusError(wire.code, wire.message, wire.actor, wire.details);
  }
}

/** Turns anything thrown into wire data: BusErrors keep their code, anything else is INTERNAL. */
export function toWireError(err: unknown, actor?: string): WireError {
  if (err instanceof BusError) {
    const wire = err.toWire();
    if (wire.actor === undefined && actor !== undefined) {
      wire.actor = actor;
    }
    return wire;
  }
  const message = err instanceof Error ? err.message : String(err);
  return actor === undefined ? { code: 'INTERNAL', message } : { code: 'INTERNAL', message, actor };
}

/** Shorthands for actor code. */
export const fail = {
  invalid: (message: string, details?: Record<string, unknown>) =>
    new BusError('INVALID', message, undefined, details),
  notFound: (message: string, details?: Record<string, unknown>) =>
    new BusError('NOT_FOUND', message, undefined, details),
  busy: (message: string, details?: Record<string, unknown>) =>
    new BusError('BUSY', message, undefined, details),
  failed: (message: string, details?: Record<string, unknown>) =>
    new BusError('FAILED', message, undefined, details),
  offline: (message: string, details?: Record<string, unknown>) =>
    new BusError('DEVICE_OFFLINE', message, undefined, details),
  unavailable: (message: string, details?: Record<string, unknown>) =>
    new BusError('UNAVAILABLE', message, undefined, details),
  timeout: (message: string, details?: Record<string, unknown>) =>
    new BusError('TIMEOUT', message, undefined, details),
  cancelled: (message: string, details?: Record<string, unknown>) =>
    new BusError('CANCELLED', message, undefined, details),
};
