/** What a load test exercises besides reading the screen: each part adds calls to the agent loop. */
export const MIX_PARTS = ['ui', 'logcat', 'build', 'screenshot', 'admin'] as const;
export type MixPart = (typeof MIX_PARTS)[number];

/** Faults a load test can inject (src/loadtest/faults.ts). */
export const FAULT_KINDS = ['device-drop', 'adb-restart', 'worker-kill', 'host-kill', 'server-kill'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
/** Faults that act on the host: they need sessions attached to one. */
export const HOST_FAULTS: readonly FaultKind[] = ['worker-kill', 'host-kill'];
/** Faults that act on one adb server's devices as one server's: a run with one adb server only. */
export const ONE_SERVER_FAULTS: readonly FaultKind[] = ['device-drop', 'adb-restart'];

/** The figures a load test runs with (`droidbus loadtest` flags). */
export interface LoadtestOptions {
  /** Devices to drive: simulated ones with `sim`, else that many of the adb server's online devices. */
  devices: number;
  /** MCP sessions (`droidbus mcp` processes), each driving its share of the devices. */
  sessions: number;
  /** Seconds the agent loops run. */
  durationS: number;
  /** Start a private adb server and `droidbus sim` devices instead of using the user's. */
  sim: boolean;
  /** `--sim`: private adb servers, each with its share of the devices, all served by every droidbus. */
  adbServers: number;
  /** Start a `droidbus host` and attach every session to it. */
  attached: boolean;
  /** Run the actors on the frontends' (or the host's) main thread. */
  inline: boolean;
  mix: MixPart[];
  json: boolean;
  /** `--sim`: how long `uiautomator dump` takes on the simulated devices. */
  dumpLatencyMs: number;
  /** `--sim`: logcat lines per second per simulated device. */
  logcatRate: number;
  /** Lines per second the sample project's Gradle prints while it builds (`build` in the mix). */
  buildRate: number;
  /** How long each build of the sample project lasts, ms. */
  buildMs: number;
  /** Rounds of the parallel-capture measurement. */
  parallelRounds: number;
  /** Milliseconds between RSS samples (the memory series). */
  rssIntervalMs: number;
  /** Faults injected during the run, one after another (src/loadtest/faults.ts). */
  faults: FaultKind[];
  /** How long a dropped device stays away, ms. */
  faultDownMs: number;
}

/** How often the memory of every process is sampled: about 60 samples a run, at least 1 s apart. */
export function defaultRssInterval(durationS: number): number {
  return Math.max(1_000, Math.round((durationS * 1000) / 60));
}

/** Each build lasts a third of the run, between 1 s and 10 s, so the last one ends soon after the run. */
export function defaultBuildMs(durationS: number): number {
  return Math.min(10_000, Math.max(1_000, Math.round((durationS * 1000) / 3)));
}
