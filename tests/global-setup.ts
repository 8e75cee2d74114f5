/**
 * The suite's global setup: whatever the suite starts, it stops.
 *
 * After the last test file it waits a few seconds for this run's adb servers and droidbus processes
 * (tagged through DROIDBUS_TEST_RUN, see vitest.config.ts) to exit, and fails the run naming each
 * one still there — an adb server left on a port, a `droidbus sim` or host a test forgot. The
 * leftovers are killed so the next run starts clean. The developer's own adb server, emulator or
 * host, and another test run beside this one, carry no tag of this run and are left alone.
 */
import { leftoverProcesses, RUN_TAG } from './helpers/leftover-processes.js';

export default function setup(): () => Promise<void> {
  const tag = process.env[RUN_TAG];
  if (!tag) {
    // vitest reports an error thrown here but still exits 0: the exit code is set by hand.
    process.exitCode = 1;
    throw new Error(`${RUN_TAG} is not set: run the suite through vitest.config.ts`);
  }
  return async () => {
    const left = await leftoverProcesses(tag, 5_000);
    if (left.length === 0) {
      return;
    }
    for (const p of left) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    // vitest reports an error thrown here but still exits 0: the exit code is set by hand.
    process.exitCode = 1;
    throw new Error(
      `the suite left ${left.length} process(es) running (killed now):\n` +
        left.map((p) => `  pid ${p.pid}: ${p.cmdline}`).join('\n'),
    );
  };
}
