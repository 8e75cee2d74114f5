import type { SessionState } from './session.js';

/** One MCP resource. `read` returns its text. */
export interface ResourceDefinition {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** Whether it is listed for this session now (project files exist only in some projects). */
  listed?(session: SessionState, signal: AbortSignal): boolean | Promise<boolean>;
  read(session: SessionState, signal: AbortSignal): Promise<string>;
}

/** Declares a resource. */
export function defineResource(def: ResourceDefinition): ResourceDefinition {
  return def;
}
