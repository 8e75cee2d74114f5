/**
 * `reverse:…` — `adb reverse`'s half on the device, as adbd's reverse_service hands it to
 * handle_forward_request (packages/modules/adb/adb.cpp, daemon/services.cpp):
 *
 * - `forward:[norebind:]LOCAL;REMOTE` installs a listener on the device and answers OKAY (and, for
 *   `tcp:0`, the port it bound as a length-prefixed string); a taken LOCAL with norebind is
 *   `FAIL cannot rebind existing socket`;
 * - `killforward:LOCAL` removes one (`FAIL listener 'LOCAL' not found` when there is none);
 * - `killforward-all` removes every one and answers OKAY;
 * - `list-forward` answers the length-prefixed list, one `SERIAL LOCAL REMOTE` line each, with the
 *   transport's name as the serial — a USB phone's reads `UsbFfs tcp:8081 tcp:8081`, as users paste it
 *   in React Native's issues;
 * - anything else is `FAIL not a reverse forwarding command`.
 *
 * The listeners belong to the transport: they live as long as this connection. An app's connection
 * to one (src/sim/device/network.ts) becomes a stream the device opens to the server with the
 * listener's REMOTE as its destination (connection.ts), as adbd's listener does.
 */
import type { AdbdStream } from './stream.js';

/** The reverse listeners of one transport, LOCAL → REMOTE in the order they were made. */
export type ReverseListeners = Map<string, string>;

/** The name adbd's USB transport has (the first column of `adb reverse --list`). */
const TRANSPORT_NAME = 'UsbFfs';
/** Where `tcp:0` starts picking a free port (the kernel's ephemeral range starts at 32768). */
const EPHEMERAL_BASE = 37_000;

function protocolString(s: string): string {
  return Buffer.byteLength(s).toString(16).padStart(4, '0') + s;
}

function handle(listeners: ReverseListeners, request: string): string {
  if (request === 'list-forward') {
    return protocolString(
      [...listeners].map(([local, remote]) => `${TRANSPORT_NAME} ${local} ${remote}\n`).join(''),
    );
  }
  if (request === 'killforward-all') {
    listeners.clear();
    return 'OKAY';
  }
  if (request.startsWith('killforward:')) {
    const local = request.slice('killforward:'.length);
    if (local === '' || local.includes(';')) {
      return 'FAIL' + protocolString(`bad killforward: ${local}`);
    }
    return listeners.delete(local) ? 'OKAY' : 'FAIL' + protocolString(`listener '${local}' not found`);
  }
  if (request.startsWith('forward:')) {
    let spec = request.slice('forward:'.length);
    const noRebind = spec.startsWith('norebind:');
    spec = noRebind ? spec.slice('norebind:'.length) : spec;
    const pieces = spec.split(';');
    if (pieces.length !== 2 || pieces[0] === '' || pieces[1] === '' || pieces[1]!.startsWith('*')) {
      return 'FAIL' + protocolString(`bad forward: ${spec}`);
    }
    const remote = pieces[1]!;
    let local = pieces[0]!;
    if (!/^(tcp:\d+|localabstract:.+|localreserved:.+|localfilesystem:.+)$/.test(local)) {
      return 'FAIL' + protocolString(`cannot bind listener: unknown socket specification '${local}'`);
    }
    if (noRebind && listeners.has(local)) {
      return 'FAIL' + protocolString('cannot rebind existing socket');
    }
    let resolved = '';
    if (local === 'tcp:0') {
      let port = EPHEMERAL_BASE;
      while (listeners.has(`tcp:${port}`)) {
        port++;
      }
      local = `tcp:${port}`;
      resolved = protocolString(String(port));
    }
    listeners.set(local, remote);
    return 'OKAY' + resolved;
  }
  return 'FAIL' + protocolString('not a reverse forwarding command');
}

/** Answers one `reverse:REQUEST` stream and closes it. */
export async function runReverseService(
  listeners: ReverseListeners,
  stream: AdbdStream,
  request: string,
): Promise<void> {
  await stream.write(Buffer.from(handle(listeners, request)));
  stream.end();
}
