/**
 * The device each run configuration last ran on (`run_run_configuration` records it; a `lastUsed`
 * target and `list_run_configurations`'s `last_device` read it): `<data dir>/run-devices.json`,
 * per project root, the 100 projects used last. Written atomically under the data lock.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from './atomic.js';
import { dataPath } from './data-dir.js';
import { withDataLock } from './lock.js';

export const RUN_DEVICES_FILE = 'run-devices.json';
export const MAX_PROJECTS = 100;
/** Configurations remembered per project at most (a project has one per app module and variant). */
const MAX_CONFIGURATIONS = 200;

const fileSchema = z.record(
  z.string(),
  z.object({ updated_at: z.string(), devices: z.record(z.string(), z.string()) }),
);
type RunDevicesFile = z.infer<typeof fileSchema>;

function readFile(): RunDevicesFile {
  let text: string;
  try {
    text = readFileSync(dataPath(RUN_DEVICES_FILE), 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = fileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** Configuration name → the serial it last ran on, for the project at `root` (canonical). */
export function readLastDevices(root: string): Record<string, string> {
  return readFile()[root]?.devices ?? {};
}

/** Records that the configuration `name` of the project at `root` ran on `serial`. */
export async function recordLastDevice(root: string, name: string, serial: string): Promise<void> {
  await withDataLock(() => {
    const all = readFile();
    // Re-added last, so the oldest entries are the first ones.
    const devices = { ...all[root]?.devices };
    delete devices[name];
    devices[name] = serial;
    const names = Object.keys(devices);
    for (const old of names.slice(0, Math.max(0, names.length - MAX_CONFIGURATIONS))) {
      delete devices[old];
    }
    all[root] = { updated_at: new Date().toISOString(), devices };
    const kept = Object.entries(all)
      .sort(([, a], [, b]) => b.updated_at.localeCompare(a.updated_at))
      .slice(0, MAX_PROJECTS);
    writeFileAtomic(dataPath(RUN_DEVICES_FILE), `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
  });
}
