import { TOOLSETS, TOOLSET_NAMES } from './toolsets.js';
import type { Toolset } from './toolsets.js';
import type { SessionMode } from './session.js';
import { describeMode } from './session.js';

/**
 * How to use a toolset's tools well, told to the model once per session where the tools' own
 * descriptions cannot say it (they say what each tool does; tools/list names them).
 */
const TOOLSET_GUIDE: Partial<Record<Toolset, string>> = {
  ui: 'Prefer tree_path from the reading tools over coordinates; pass expect_screen_hash so an action never lands on a changed screen. Every action answers the screen it left (screen_hash, what appeared, went or changed): read the screen again only when that is not enough; `then: TEXT` waits for the next screen in the same call.',
  'device-extras':
    'Files move only inside device folders the user allowed with `droidbus storage allow` (a tool cannot allow one: ask the user); broadcasts to other apps need allow_foreign_package: true.',
};

/** What droidbus cannot do over adb, said wherever a model might look for it. */
export const NOT_OVER_ADB =
  'Not available over adb, so no tools: the camera, the microphone, and the tunnels (Cloudflare, ngrok) an on-device MCP server opens — screenshot shows the screen; the droidbus host serves remote agents.';

/**
 * The `instructions` string of `initialize`, generated from the registry and read by the model in
 * every session, so it says only what tools/list cannot: the mode, the toolsets served and the
 * others (how to get them), how the ui tools are meant to be used, and how errors read.
 */
export function buildInstructions(mode: SessionMode, enabled: readonly Toolset[]): string {
  const hidden = TOOLSET_NAMES.filter((t) => !enabled.includes(t));
  let modeLine = `droidbus (${describeMode(mode)}).`;
  if (mode.kind === 'standalone') {
    modeLine += ' Builds and logcat streams run in this process.';
  } else {
    modeLine += mode.pinnedProject
      ? ` Pinned to ${mode.pinnedProject}; devices, logcat streams and the build slot are shared with the user and other agents.`
      : ' Devices, logcat streams and the build slot are shared with the user and other agents.';
  }
  modeLine += ` Toolsets served: ${enabled.join(', ')}.`;
  if (hidden.length > 0) {
    modeLine += ` Not served (the user adds one with --toolsets ${enabled.join(',')},NAME in the droidbus registration): ${hidden.map((t) => `${t} (${TOOLSETS[t]})`).join('; ')}.`;
  }
  const parts = [modeLine];
  for (const toolset of enabled) {
    const guide = TOOLSET_GUIDE[toolset];
    if (guide !== undefined) {
      parts.push(`${toolset}: ${guide}`);
    }
  }
  parts.push(NOT_OVER_ADB);
  parts.push(
    'Errors (isError) say what failed and what to try next; structuredContent.error.code is stable. The droidbus://skill resource says when droidbus fits and when plain adb or the SDK tools do.',
  );
  return parts.join('\n\n');
}
