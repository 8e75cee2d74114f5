import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineResource } from './resources.js';
import type { ResourceDefinition } from './resources.js';

/** The skill's URI. */
export const SKILL_URI = 'droidbus://skill';

/** skills/droidbus/SKILL.md of this installation (shipped in the npm package beside dist/). */
export const SKILL_FILE = fileURLToPath(new URL('../../skills/droidbus/SKILL.md', import.meta.url));

/** The skill's Markdown, as shipped. */
export function readSkill(): string {
  return readFileSync(SKILL_FILE, 'utf8');
}

/**
 * `droidbus://skill`: the agent skill (when to use droidbus and when another tool fits better), so
 * every client can read it, not only those that install skills. Served in every session, also a
 * pinned one whose project the host closed.
 */
export function skillResource(): ResourceDefinition {
  return defineResource({
    uri: SKILL_URI,
    name: 'skill',
    title: 'droidbus agent skill',
    description:
      'When to use droidbus (builds, logcat, crashes and deobfuscation, exit reasons, launch times, UI automation, package scope) and when another tool fits better.',
    mimeType: 'text/markdown',
    read: () => Promise.resolve(readSkill()),
  });
}
