import type { z } from 'zod';

/**
 * One request type of the bus: which actor kind answers it, how the instance is chosen, and the zod
 * schemas of its payload and response. The registry in registry.ts collects them all.
 */
export interface RequestDef<
  Req extends z.ZodType = z.ZodType,
  Res extends z.ZodType = z.ZodType,
  A extends string = string,
> {
  /** The actor kind that handles it (`system`, `device`, `logcat`, `build`, `retrace`, …). */
  actor: A;
  /** For kinds with many instances (one per device): the instance key taken from the payload. */
  key?: (payload: z.infer<Req>) => string;
  request: Req;
  response: Res;
  /** The deadline a request gets when the caller sets none. */
  timeoutMs: number;
  /**
   * True when the work must go on after the client that asked disconnects (a Gradle build started
   * by an agent is finished and recorded even if the agent goes away).
   */
  survivesDisconnect?: boolean;
}

/** Declares a request type; the generic parameters keep the schemas' exact types. */
export function defineRequest<Req extends z.ZodType, Res extends z.ZodType, const A extends string>(
  def: RequestDef<Req, Res, A>,
): RequestDef<Req, Res, A> {
  return def;
}

/** One event topic and the schema of its payload. */
export interface EventDef<P extends z.ZodType = z.ZodType> {
  payload: P;
}

/** Declares an event topic. */
export function defineEvent<P extends z.ZodType>(payload: P): EventDef<P> {
  return { payload };
}
