/**
 * The bus response a tool answers with, to build its output schema from (`.pick`, `.extend`):
 * a field the contract defines is never restated in a tool (tests/guards/tool-outputs.test.ts).
 */
import { REQUESTS } from '../bus/registry.js';
import type { RequestType } from '../bus/registry.js';

export function responseOf<T extends RequestType>(type: T): (typeof REQUESTS)[T]['response'] {
  return REQUESTS[type].response;
}
