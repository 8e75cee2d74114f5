import { randomUUID } from 'node:crypto';
import { defineConfig } from 'vitest/config';

// A tag of this run that every process a test starts inherits: the global teardown
// (tests/global-setup.ts) finds the adb servers and droidbus processes the run left by it.
process.env['DROIDBUS_TEST_RUN'] = randomUUID();

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // e2e files start real adb servers and CLI processes; two cores is all CI has.
    maxWorkers: 2,
    // Fails the run when a test leaves an adb server or a droidbus process running.
    globalSetup: ['tests/global-setup.ts'],
    // Every adb server a test starts (directly, or droidbus starting one) skips adb's scan of the
    // emulator ports 5555-5585 when it starts, so an emulator the developer runs beside the suite
    // (Android Studio's first AVD is emulator-5554) never shows up in a test's device list. The
    // sim's own emulators announce themselves (host:emulator:PORT), which the server still takes.
    // (The same as NO_EMULATOR_SCAN in src/adb/private-server.ts, which says why both.)
    env: { ADB_EMU: '0', ADB_LOCAL_TRANSPORT_MAX_PORT: '5553' },
  },
});
