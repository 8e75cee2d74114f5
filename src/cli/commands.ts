import type { CliCommand } from './command.js';

/**
 * Every subcommand, loaded on demand so `droidbus mcp` starts without loading the simulator or the
 * dashboard. Add a command here and in its own file under src/cli/.
 */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<CliCommand> }> = {
  demo: {
    summary: 'Walk the main job on a simulated device: build, install, launch, UI, crash, deobfuscation.',
    load: async () => (await import('./demo.js')).command,
  },
  mcp: {
    summary: 'Serve MCP over stdio (attaches to a running host, else standalone).',
    load: async () => (await import('./mcp.js')).command,
  },
  host: {
    summary: 'Run the droidbus host that agent sessions attach to (devices, logcat, builds shared).',
    load: async () => (await import('./host.js')).command,
  },
  token: {
    summary: 'Print (or --rotate) the bearer token of droidbus host --http.',
    load: async () => (await import('./token.js')).command,
  },
  approve: {
    summary: 'Approve (or --deny) an OAuth connection to droidbus host --http by its 2-digit code.',
    load: async () => (await import('./approve.js')).command,
  },
  oauth: {
    summary: 'List or revoke the OAuth clients of droidbus host --http; turn OAuth on or off.',
    load: async () => (await import('./oauth.js')).command,
  },
  ui: {
    summary: "Print (and open) a one-time login link to the droidbus host's page.",
    load: async () => (await import('./ui.js')).command,
  },
  status: {
    summary: 'Show the droidbus host and every live MCP session with its version.',
    load: async () => (await import('./status.js')).command,
  },
  setup: {
    summary: 'Print the commands that register droidbus with Claude Code and Codex; install the skill.',
    load: async () => (await import('./setup.js')).command,
  },
  doctor: {
    summary: 'Check Java, the Android SDK, adb and the Gradle wrapper, for a person.',
    load: async () => (await import('./doctor.js')).command,
  },
  retrace: {
    summary: 'Deobfuscate a stack trace with an R8/ProGuard mapping file (no JVM needed).',
    load: async () => (await import('./retrace.js')).command,
  },
  trust: {
    summary: 'Trust an Android project to run its Gradle build (--list shows the trusted ones).',
    load: async () => (await import('./trust.js')).command,
  },
  untrust: {
    summary: 'Revoke the trust in an Android project.',
    load: async () => (await import('./trust.js')).untrustCommand,
  },
  helper: {
    summary:
      "Install, check or remove the on-device UI helper (Appium's UiAutomator2 server) — a person's decision.",
    load: async () => (await import('./helper.js')).command,
  },
  device: {
    summary: 'Record a device into a profile (droidbus sim --profile replays it): for bug reports.',
    load: async () => (await import('./device.js')).command,
  },
  storage: {
    summary: 'Allow or revoke the device folders the file tools may use (MCP cannot).',
    load: async () => (await import('./storage.js')).command,
  },
  loadtest: {
    summary:
      'Drive many MCP sessions against many devices and report throughput, latency and event-loop lag.',
    load: async () => (await import('./loadtest.js')).command,
  },
  session: {
    summary: "Export a debug session's UI steps as a Maestro flow (a test the team keeps).",
    load: async () => (await import('./session.js')).command,
  },
  flow: {
    summary: 'Run a Maestro flow on one device or many at once, through droidbus.',
    load: async () => (await import('./flow.js')).command,
  },
  sim: {
    summary: 'Run simulated Android devices that the real adb server accepts (try droidbus without a phone).',
    load: async () => (await import('./sim.js')).command,
  },
};
