/**
 * A build that runs an app's instrumented tests on the connected devices (`connected…AndroidTest`,
 * `connectedCheck`, `deviceCheck`) needs each device's only UiAutomation: a test that uses UI
 * Automator fails with "UiAutomationService … already registered!" while droidbus's helper holds it.
 * For the build's length the build actor lends each device's UI Automator to it (the device actor
 * stops the helper and refuses screen reads, saying why) and takes it back after; the next read
 * starts the helper again.
 */
import { logger } from '../../util/log.js';
import type { HandlerContext } from '../actor.js';

const log = logger('build');

/** The tasks AGP runs instrumented tests on connected devices with (Gradle Managed Devices start their own). */
const DEVICE_TEST_TASK = /^(?:connected\w*AndroidTest|connected\w*Check|deviceCheck|deviceAndroidTest)$/;

/**
 * Whether the build runs tests on connected devices: any of the tasks Gradle's dry run listed, or
 * else the task named (a standard name, judged without a dry run), by its last path segment.
 */
export function runsDeviceTests(task: string, executed: readonly string[] | null): boolean {
  const names = executed ?? task.split(/\s+/);
  return names.some((t) => DEVICE_TEST_TASK.test(t.slice(t.lastIndexOf(':') + 1)));
}

/**
 * Lends the UI Automator of every device the tests will run on — the online ones, narrowed by the
 * build's ANDROID_SERIAL as AGP narrows them — for at most `maxMs`; answers what takes them back.
 * A device that cannot be lent is logged and left: the tests run all the same.
 */
export async function lendDevicesForTests(
  build: { id: string; task: string; env: NodeJS.ProcessEnv; maxMs: number },
  ctx: HandlerContext,
): Promise<() => Promise<void>> {
  const purpose = `the connected tests of build ${build.id} (${build.task})`;
  const wanted = (build.env['ANDROID_SERIAL'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const listed = await ctx.bus.request('devices.list', {}, { signal: ctx.signal }).catch((err: unknown) => {
    // No device list (no adb server): Gradle says what it finds; nothing is lent.
    log.warn('could not list the devices to lend to the connected tests', { error: String(err) });
    return { devices: [] };
  });
  const serials = listed.devices
    .filter((d) => d.state === 'device')
    .map((d) => d.serial)
    // With several adb servers an id is `LABEL/serial`; ANDROID_SERIAL names the bare serial.
    .filter((id) => wanted.length === 0 || wanted.includes(id.slice(id.lastIndexOf('/') + 1)));
  const lent: string[] = [];
  await Promise.all(
    serials.map(async (serial) => {
      try {
        const r = await ctx.bus.request(
          'device.ui_lend',
          { serial, purpose, max_ms: build.maxMs },
          { signal: ctx.signal },
        );
        lent.push(serial);
        log.info('UI Automator lent to the connected tests', { serial, build: build.id, helper: r.helper });
      } catch (err) {
        log.warn('could not lend UI Automator to the connected tests', { serial, error: String(err) });
      }
    }),
  );
  return async () => {
    await Promise.all(
      lent.map((serial) =>
        ctx.bus
          .request('device.ui_reclaim', { serial, purpose })
          .catch((err: unknown) =>
            log.warn('could not take UI Automator back', { serial, error: String(err) }),
          ),
      ),
    );
  };
}
