/**
 * Evidence: packages/modules/adb/SERVICES.TXT and daemon/services.cpp daemon_service_to_fd (the
 * services adbd opens; an unknown one is refused with CLSE).
 */
import type { AdbdStream } from './stream.js';
import type { ServiceContext } from './service-context.js';
import { runReverseService } from './reverse-service.js';
import { runShellService } from './shell-service.js';
import { runSyncService } from './sync-service.js';
import { runTcpService } from './tcp-service.js';

/** A service bound to its arguments, run on a freshly opened stream. */
export type ServiceRun = (stream: AdbdStream) => Promise<void>;

/**
 * Maps an OPEN's service name to what runs it, or undefined for a service this adbd does not have
 * (the connection then refuses the stream with CLSE, as adbd does).
 *
 * `shell:CMD` is shell v1; `shell,v2,TERM=xterm,raw:CMD` (any argument list containing `v2`) is the
 * shell protocol; `exec:CMD` is raw; `sync:` is the file sync loop; `tcp:PORT` (what an
 * `adb forward tcp:L tcp:PORT` opens for each connection to L) reaches a socket the device listens on;
 * `localabstract:NAME` (SERVICES.TXT's local socket services; what `adb forward … localabstract:`
 * opens) reaches an abstract unix socket, a WebView's devtools socket here; `reverse:…` is `adb
 * reverse` (reverse-service.ts).
 */
export function openService(ctx: ServiceContext, service: string): ServiceRun | undefined {
  if (service === 'sync:') {
    return (stream) => runSyncService(ctx, stream);
  }
  if (service.startsWith('exec:')) {
    const command = service.slice('exec:'.length);
    return (stream) => runShellService(ctx, stream, command, 'exec');
  }
  if (service.startsWith('shell:') || service.startsWith('shell,')) {
    const colon = service.indexOf(':');
    if (colon < 0) {
      return undefined;
    }
    const args = service.slice('shell'.length, colon).split(',');
    const command = service.slice(colon + 1);
    return (stream) => runShellService(ctx, stream, command, args.includes('v2') ? 'v2' : 'v1');
  }
  const adbRoot = ctx.device.adbRoot?.bind(ctx.device);
  if ((service === 'root:' || service === 'unroot:') && adbRoot !== undefined) {
    return async (stream) => {
      const answer = adbRoot(service === 'root:');
      await stream.write(Buffer.from(answer));
      stream.end();
      if (answer.startsWith('restarting')) {
        // adbd exits once it has answered; init starts it again as the new user.
        ctx.restart();
      }
    };
  }
  if (service.startsWith('reverse:')) {
    return (stream) => runReverseService(ctx.reverses, stream, service.slice('reverse:'.length));
  }
  const abstract = /^localabstract:(.+)$/.exec(service);
  if (abstract !== null) {
    const accept = ctx.device.acceptAbstract?.(abstract[1]!);
    return accept === undefined ? undefined : (stream) => runTcpService(stream, accept);
  }
  const tcp = /^tcp:(\d+)$/.exec(service);
  if (tcp !== null) {
    const accept = ctx.device.acceptTcp?.(Number(tcp[1]));
    // Nothing listens there: adbd refuses the stream, and adb closes the forwarded connection.
    return accept === undefined ? undefined : (stream) => runTcpService(stream, accept);
  }
  return undefined;
}
