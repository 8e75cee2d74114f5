import { SESSION_LIMITS } from '../bus/messages/sessions.js';

/**
 * Where and how an actor kind runs; every instance is started by its first request. The module
 * itself is loaded only inside its worker thread.
 */
export interface KindConfig {
  /** The module that default-exports the kind's `defineActor(…)`. */
  module: URL;
  /** The worker group whose threads host it. */
  group: string;
  /** Requests waiting or running at once; one more is answered BUSY. */
  mailbox: number;
}

/** Threads per worker group. Device actors share a few threads so memory stays flat with device count. */
export const DEFAULT_GROUPS: Record<string, number> = {
  main: 1,
  devices: 2,
  /** Logcat parsing has its own thread, so it never shares one with UI captures. */
  logcat: 1,
  // Builds parse thousands of output lines a second: their own thread keeps that off the others.
  build: 1,
  network: 1,
};

/** Every actor kind of droidbus. */
export const ACTOR_KINDS: Record<string, KindConfig> = {
  system: {
    module: new URL('./system/system-actor.js', import.meta.url),
    group: 'main',
    mailbox: 64,
  },
  devices: {
    module: new URL('./devices/devices-actor.js', import.meta.url),
    group: 'main',
    mailbox: 256,
  },
  device: {
    module: new URL('./device/device-actor.js', import.meta.url),
    group: 'devices',
    mailbox: 64,
  },
  project: {
    module: new URL('./project/project-actor.js', import.meta.url),
    group: 'main',
    mailbox: 64,
  },
  logcat: {
    module: new URL('./logcat/logcat-actor.js', import.meta.url),
    group: 'logcat',
    mailbox: 256,
  },
  retrace: {
    module: new URL('./retrace/retrace-actor.js', import.meta.url),
    group: 'main',
    mailbox: 64,
  },
  build: {
    module: new URL('./build/build-actor.js', import.meta.url),
    group: 'build',
    mailbox: 64,
  },
  // The SDK's emulators: listing AVDs, starting them (a child process each) and stopping them.
  avd: {
    module: new URL('./avd/avd-actor.js', import.meta.url),
    group: 'main',
    mailbox: 32,
  },
  // Run configurations run as Run App runs them: a workflow over the project, build and device actors.
  run: {
    module: new URL('./run/run-actor.js', import.meta.url),
    group: 'main',
    mailbox: 32,
  },
  // Maestro flows: one sequence per device, in parallel, through the device actors.
  flows: {
    module: new URL('./flows/flows-actor.js', import.meta.url),
    group: 'main',
    mailbox: 16,
  },
  // Network captures: an intercepting proxy per device; its own thread, so proxying never waits on
  // the main group's actors (nor they on it).
  network: {
    module: new URL('./network/network-actor.js', import.meta.url),
    group: 'network',
    mailbox: 64,
  },
  sessions: {
    module: new URL('./sessions/sessions-actor.js', import.meta.url),
    group: 'main',
    // Agent actions beyond it are answered BUSY and counted as dropped by the frontend.
    mailbox: SESSION_LIMITS.maxPendingEvents,
  },
};

/** Splits `kind/key` into its parts. */
export function parseAddress(address: string): { kind: string; key: string | undefined } {
  const slash = address.indexOf('/');
  return slash < 0
    ? { kind: address, key: undefined }
    : { kind: address.slice(0, slash), key: address.slice(slash + 1) };
}
