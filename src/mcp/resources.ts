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
  /**
   * A file of the session's project: refused (and not listed) in a pinned session whose project
   * the host has closed, like the project tools. Project info, health, the skill and runtime
   * figures are served whatever the project.
   */
  projectFile?: boolean;
}

/** Declares a resource. */
export function defineResource(def: ResourceDefinition): ResourceDefinition {
  return def;
}
