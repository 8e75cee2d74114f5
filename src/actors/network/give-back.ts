/**
 * Giving a device back the proxy setting a capture took (issue 72): its device actor restores the
 * setting (while it is still droidbus's) and removes the reverse forward, then the route's record is
 * forgotten — so a record outlives a route only while the device could not be reached. Every way a
 * capture ends goes through here: a stop, a session's end, a shutdown, a device back online, and a
 * droidbus that died (network-routes-keeper.ts).
 */
import type { BusClient } from '../../bus/client.js';
import type { ResponseOf } from '../../bus/registry.js';
import { forgetNetworkRoute } from '../../store/network-routes.js';

export interface RouteToGiveBack {
  serial: string;
  port: number;
  previous: string | null;
}

export async function giveBack(
  bus: Pick<BusClient, 'request'>,
  route: RouteToGiveBack,
): Promise<ResponseOf<'device.proxy_unroute'>> {
  const r = await bus.request('device.proxy_unroute', {
    serial: route.serial,
    port: route.port,
    previous: route.previous,
  });
  await forgetNetworkRoute(route.serial, route.port);
  return r;
}
