/**
 * The display configurations droidbus changed on devices (issue 74): `<data dir>/device-config-changes.json`,
 * one entry per device with its values before the first change, the process and the session that
 * changed them. The device actor gives them back when that session ends or on `restore`; a process
 * that dies first (kill -9, a crash) leaves its entry, and the next droidbus to see the device gives
 * the values back. Written atomically under the data lock.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { appLocalesSchema, displayConfigSchema } from './formats/display-config.js';
import { originSchema } from './formats/origin.js';
import { writeFileAtomic } from './atomic.js';
import { dataPath } from './data-dir.js';
import { withDataLock } from './lock.js';

export const DEVICE_CONFIG_CHANGES_FILE = 'device-config-changes.json';

const changeSchema = z.object({
  serial: z.string().max(200),
  previous: displayConfigSchema,
  settings: z.array(z.string().max(40)).max(10),
  /** Apps whose locales droidbus set, with what they had (absent in files before issue 74's locales). */
  app_locales: z.array(appLocalesSchema).max(50).optional(),
  /** The process that made the changes. */
  pid: z.number().int(),
  /** Who asked (the session, for an agent). */
  by: originSchema,
  at: z.string(),
});
export type DeviceConfigChange = z.infer<typeof changeSchema>;

const fileSchema = z.array(changeSchema).max(1000);

/** Every change recorded (none when the file is missing or unreadable). */
export function readDeviceConfigChanges(): DeviceConfigChange[] {
  try {
    const parsed = fileSchema.safeParse(
      JSON.parse(readFileSync(dataPath(DEVICE_CONFIG_CHANGES_FILE), 'utf8')),
    );
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** The change recorded for `serial`, if any. */
export function deviceConfigChangeOf(serial: string): DeviceConfigChange | undefined {
  return readDeviceConfigChanges().find((c) => c.serial === serial);
}

/**
 * Records `serial`'s change through `update` (given the entry recorded now, if any; returning the
 * new one, or null to forget it), atomically under the data lock; answers what was recorded.
 */
export async function updateDeviceConfigChange(
  serial: string,
  update: (recorded: DeviceConfigChange | undefined) => DeviceConfigChange | null,
): Promise<DeviceConfigChange | null> {
  return withDataLock(() => {
    const all = readDeviceConfigChanges();
    const next = update(all.find((c) => c.serial === serial));
    const rest = all.filter((c) => c.serial !== serial);
    writeFileAtomic(
      dataPath(DEVICE_CONFIG_CHANGES_FILE),
      `${JSON.stringify(next === null ? rest : [...rest, next], null, 2)}\n`,
    );
    return next;
  });
}
