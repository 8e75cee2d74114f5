import type { ToolDefinition } from './define-tool.js';
import { TOOLSETS, TOOLSET_NAMES } from './toolsets.js';
import type { Toolset } from './toolsets.js';
import type { SessionMode } from './session.js';
import { describeMode } from './session.js';

/** What each toolset's tools are for, told to the model once per session. */
const TOOLSET_GUIDE: Record<Toolset, string> = {
  core: 'Use these for stateful Android work: Gradle builds with structured errors, logcat and crashes (with R8 deobfuscation), launch times, the project and its health, and reading devices and apps.',
  ui: 'Use these to read the screen (UI Automator hierarchy, screenshots) and drive it; prefer tree paths (tree_path) from the reading tools over raw coordinates, and pass expect_screen_hash so an action never lands on a screen that changed. Every action answers the screen it left (its new screen_hash and what appeared, went or changed), so read the whole screen again only when that is not enough; ui_tap_element and send_ui_key take then: TEXT to wait for the next screen in the same call.',
  'device-admin':
    "Use these to install, launch, stop and restart apps, change their permissions and open deep links. Destructive ones are limited to the project's own packages unless the user asked for another (allow_foreign_package: true).",
  inspect:
    'Use these to look inside the running app: its package dump, memory, frame stats, exit reasons and logcat stats, and the debug session droidbus keeps per install (what the agent and the app did, compared between installs).',
  'build-config':
    'Use these to list and switch build variants, read the resolved build config, and list, build and run the run configurations the project shares.',
  'ui-extras':
    "Use these when the ui toolset is not enough: every clickable element, an element's parent, comparing two screens, asserting an element, waiting for the UI to idle, clearing the focused field, typing through the Unicode route only.",
  'device-settings':
    "Use these to list, start and stop emulators (AVDs), rotate the screen, turn Wi-Fi, data or airplane mode on and off, and open an app's settings screen.",
  'device-extras':
    "Use these for what an on-device assistant would do, from the host over adb: read, open and dismiss notifications (keys from list_notifications); list, pull and push files only inside device folders the user allowed with `droidbus storage allow` (host copies live in droidbus's exchange folder; a tool cannot allow a folder — ask the user); send intents (broadcasts to other apps need allow_foreign_package: true); list on-screen windows (to spot a permission dialog or the keyboard); read the last known location, and set an emulator's.",
};

/** What droidbus cannot do over adb, said wherever a model might look for it. */
export const NOT_OVER_ADB =
  'Not available over adb, so droidbus has no tools for them: taking photos or video with the camera, recording from the microphone, and the tunnels (Cloudflare, ngrok) an on-device MCP server opens — use screenshot for what is on screen, and the droidbus host for remote access.';

/**
 * The `instructions` string of `initialize`, generated from the registry: the mode first, then the
 * enabled and hidden toolsets, then what each enabled group of tools is for.
 */
export function buildInstructions(
  mode: SessionMode,
  enabled: readonly Toolset[],
  tools: readonly ToolDefinition[],
): string {
  const hidden = TOOLSET_NAMES.filter((t) => !enabled.includes(t));
  const parts: string[] = [];
  let modeLine = `droidbus (${describeMode(mode)}).`;
  if (mode.kind === 'standalone') {
    modeLine +=
      " Its builds and logcat streams run in this process and are not visible on the droidbus host's page.";
  } else {
    modeLine += mode.pinnedProject
      ? ` It is pinned to ${mode.pinnedProject}; the host's devices, logcat streams and build slot are shared with the user and other agents.`
      : " It follows the host's project; the host's devices, logcat streams and build slot are shared with the user and other agents.";
  }
  modeLine += ` Toolsets served: ${enabled.join(', ')}.`;
  if (hidden.length > 0) {
    modeLine += ` Not served (the user adds one with --toolsets ${enabled.join(',')},NAME in the droidbus registration): ${hidden.map((t) => `${t} (${TOOLSETS[t]})`).join('; ')}.`;
  }
  parts.push(modeLine);
  parts.push(
    'droidbus does Android development work on real devices and emulators for you: build with Gradle and read structured errors, stream and query logcat, group and deobfuscate crashes, inspect and drive the UI, take screenshots, and manage apps — on many devices at once.',
  );
  for (const toolset of enabled) {
    const names = tools.filter((t) => t.toolset === toolset).map((t) => t.name);
    if (names.length === 0) {
      continue;
    }
    parts.push(`${toolset} — ${TOOLSETS[toolset]}: ${TOOLSET_GUIDE[toolset]} Tools: ${names.join(', ')}.`);
  }
  parts.push(NOT_OVER_ADB);
  parts.push(
    'Tool errors (isError results) say what failed and what to try next, with a stable structuredContent.error.code (invalid_argument, untrusted_project, foreign_package, blocked_task, no_project, not_found, busy, timeout, device_offline…). Arguments are validated strictly: a refused argument names the rule; fix it and call again.',
  );
  parts.push(
    'droidbus covers stateful work (builds, logs, crashes, the running app); read the droidbus://skill resource for when to use it and when another tool (the Android SDK tools, plain adb) fits better.',
  );
  return parts.join('\n\n');
}
