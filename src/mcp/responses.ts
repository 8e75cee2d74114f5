/**
 * The bus response a tool answers with, to build its output schema from (`.pick`, `.extend`):
 * a field the contract defines is never restated in a tool (tests/guards/tool-outputs.test.ts).
 */
import { z } from 'zod';
import { REQUESTS } from '../bus/registry.js';
import type { RequestType } from '../bus/registry.js';

export function responseOf<T extends RequestType>(type: T): (typeof REQUESTS)[T]['response'] {
  return REQUESTS[type].response;
}

/** A device tool's output: its bus response and the device it answered for. */
export function deviceResponseOf<T extends RequestType>(type: T) {
  const response = REQUESTS[type].response as (typeof REQUESTS)[T]['response'] & z.ZodObject;
  return response.extend({ device_serial: z.string() });
}
