/**
 * The simulator's entry: everything outside src/sim (the CLI, the demo, droidbus's tests and
 * benches) imports the simulator from here and nowhere else, and the simulator imports only the
 * shared modules its import guard names (tests/guards/sim-package.test.ts) — so it can be published
 * on its own later.
 *
 * Evidence: none — this file only re-exports; each module it names cites its own.
 */
export { startFarm, type Farm, type FarmDevice, type FarmOptions } from './farm.js';
export type { AuthMode } from './adbd/connection.js';
export type { CommandLogEntry } from './adbd/command-log.js';
export type { ShellIo, SimDevice, SimDeviceIdentity, SimDeviceOptions } from './device-api.js';
export { createSimDevice } from './control/index.js';
export { runOn } from './device/collect-io.js';
export { profileIdentity } from './device/profile-replay.js';
export { writeTestSdk } from './test-sdk.js';
export * from './sample-app.js';
export * from './sample-project/index.js';
export { remoteLogPath } from './sample-project/gradlew-stand-in.js';
export { PLUGINS } from './sample-project/plugin-tasks.js';
export { projectTasks } from './sample-project/gradle-tasks.js';
export { variantName, type BuildModel } from './sample-project/build-model.js';
