/**
 * The UI helper's page source in a recording: when the device runs the UiAutomator2 server with a
 * session (droidbus's helper in use, or the person's own Appium session), `device record` keeps
 * what that session shows — GET /session/:id/source — read only: no server is started and no
 * session made. It is not a shell command, so the profile keeps it under its own argv.
 */
import type { Device } from '../device/device.js';
import { READS, readCommand } from '../device/reads.js';
import { HELPER_DEVICE_PORT, HELPER_PACKAGE } from '../device/uiautomator2-helper.js';

const TIMEOUT_MS = 10_000;

/** The page source of the helper's session on the device, or null when no server or session runs. */
export async function recordHelperSource(device: Device, signal?: AbortSignal): Promise<string | null> {
  const pids = await device.shell(
    readCommand(READS.pidOf, { package: HELPER_PACKAGE }),
    signal ? { signal } : {},
  );
  if (pids.stdout.trim() === '') {
    return null; // No server runs: nothing to ask, and nothing is started.
  }
  const port = await device.forward(`tcp:${HELPER_DEVICE_PORT}`, signal ? { signal } : {});
  // A timer that holds the process open (AbortSignal.timeout's does not): the CLI waits for it.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new Error('the UI helper did not answer')), TIMEOUT_MS);
  try {
    const get = async (path: string): Promise<unknown> => {
      const r = await fetch(`http://127.0.0.1:${port}/wd/hub${path}`, {
        signal: signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
      });
      return r.ok ? ((await r.json()) as { value?: unknown }).value : undefined;
    };
    const sessions = (await get('/sessions')) as { id?: unknown }[] | undefined;
    const id = sessions?.find((s) => typeof s.id === 'string')?.id as string | undefined;
    if (id === undefined) {
      return null;
    }
    const source = await get(`/session/${encodeURIComponent(id)}/source`);
    return typeof source === 'string' ? source : null;
  } catch {
    return null; // The server does not answer: no page source to keep.
  } finally {
    clearTimeout(timer);
    await device.removeForward(port).catch(() => undefined);
  }
}
