import type { Bus } from '../bus/bus.js';
import { LocalBusClient } from '../bus/local-client.js';
import { readNetworkRoutes, type NetworkRoute } from '../store/network-routes.js';
import { giveBack } from './network/give-back.js';
import { isProcessAlive } from '../util/process-info.js';
import { logger } from '../util/log.js';

const log = logger('network-routes');

/**
 * Gives devices back the proxy setting a dead droidbus left them with (issue 72): the routes
 * store/network-routes.ts holds for processes that are gone (killed mid-capture) are undone as each
 * device is online — now, or when adb lists it again — and then forgotten. A setting someone changed
 * since is left alone (device.proxy_unroute restores only while the setting is still droidbus's).
 */
export function restoreOrphanedRoutes(bus: Bus): () => void {
  const orphaned = new Map<string, NetworkRoute>(
    readNetworkRoutes()
      .filter((r) => r.pid !== process.pid && !isProcessAlive(r.pid))
      .map((r) => [r.serial, r]),
  );
  if (orphaned.size === 0) {
    return () => undefined;
  }
  const client = new LocalBusClient(bus, { kind: 'actor', address: 'network-routes' });
  const restore = (route: NetworkRoute): void => {
    orphaned.delete(route.serial);
    giveBack(client, route)
      .then((r) => {
        log.info(
          r.restored
            ? `gave ${route.serial} back its proxy setting (${route.previous ?? 'none'}) after a droidbus that captured its network died`
            : `${route.serial}'s proxy setting was changed since (${r.current ?? 'none'}); left as it is`,
        );
      })
      .catch((err: unknown) => {
        // Not reachable after all: tried again when it is online.
        orphaned.set(route.serial, route);
        log.debug(`could not restore ${route.serial}'s proxy setting yet`, { error: String(err) });
      });
  };
  const off = bus.subscribe('device.state', ({ serial, state }) => {
    const route = orphaned.get(serial);
    if (route !== undefined && state === 'device') {
      restore(route);
    }
  });
  // Asking for the device list starts the device tracker: online devices report themselves.
  client
    .request('devices.list', {})
    .then(({ devices }) => {
      for (const d of devices) {
        const route = orphaned.get(d.serial);
        if (route !== undefined && d.state === 'device') {
          restore(route);
        }
      }
    })
    .catch((err: unknown) => log.debug('could not list devices', { error: String(err) }));
  return () => {
    off();
    void client.close();
  };
}
