/**
 * The devices a network capture routes through droidbus's proxy (issue 72): `<data dir>/network-routes.json`,
 * each with the proxy setting it had before and the process that routed it. A process that dies
 * mid-capture (kill -9, a crash) leaves its entries; the next droidbus to start gives those devices
 * their setting back (src/actors/network-routes-keeper.ts), so a phone is never left pointing at a
 * dead proxy. Written atomically under the data lock.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from './atomic.js';
import { dataPath } from './data-dir.js';
import { withDataLock } from './lock.js';

export const NETWORK_ROUTES_FILE = 'network-routes.json';

const routeSchema = z.object({
  serial: z.string().max(200),
  port: z.number().int().min(1024).max(65535),
  /** The device's http_proxy before (null: none). */
  previous: z.string().max(300).nullable(),
  /** The process that routed it. */
  pid: z.number().int(),
  at: z.string(),
});
export type NetworkRoute = z.infer<typeof routeSchema>;

const fileSchema = z.array(routeSchema).max(1000);

/** Every route recorded (none when the file is missing or unreadable). */
export function readNetworkRoutes(): NetworkRoute[] {
  try {
    const parsed = fileSchema.safeParse(JSON.parse(readFileSync(dataPath(NETWORK_ROUTES_FILE), 'utf8')));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

function write(routes: NetworkRoute[]): void {
  writeFileAtomic(dataPath(NETWORK_ROUTES_FILE), `${JSON.stringify(routes, null, 2)}\n`);
}

/** Records a device's route (replacing one recorded for the same device). */
export async function recordNetworkRoute(route: NetworkRoute): Promise<void> {
  await withDataLock(() => write([...readNetworkRoutes().filter((r) => r.serial !== route.serial), route]));
}

/** Forgets the route of `serial` recorded on `port`. */
export async function forgetNetworkRoute(serial: string, port: number): Promise<void> {
  await withDataLock(() =>
    write(readNetworkRoutes().filter((r) => !(r.serial === serial && r.port === port))),
  );
}
