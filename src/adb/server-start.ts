import { locateAdb } from './sdk.js';
import { runProcess } from '../util/exec.js';
import type { AdbClient } from './client.js';
import { AdbError } from './errors.js';
import { describeAdbServer } from './server-address.js';

export interface ServerCheck {
  /** True when droidbus had to start the server. */
  started: boolean;
  /** The protocol version the server answered with. */
  version: number;
  /** What happened, for logs and list_devices. */
  message: string;
  /** The adb that was started, when one was. */
  adb?: string;
}

/**
 * Makes sure an adb server answers. When none runs on a local TCP address, starts one with the
 * SDK's adb (ANDROID_HOME, ANDROID_SDK_ROOT, PATH, the default SDK folders) — as the adb client
 * itself would — and says so. A remote server (ADB_SERVER_SOCKET) is never started.
 */
export async function ensureAdbServer(
  client: AdbClient,
  signal?: AbortSignal,
  startIfAbsent = true,
): Promise<ServerCheck> {
  try {
    const version = await client.serverVersion(signal ? { signal } : {});
    return {
      started: false,
      version,
      message: `adb server ${describeAdbServer(client.address)} (protocol ${version})`,
    };
  } catch (err) {
    if (!(err instanceof AdbError) || err.kind !== 'server_unreachable') {
      throw err;
    }
  }
  const address = client.address;
  if (!startIfAbsent) {
    throw new AdbError('server_unreachable', `no adb server answers at ${describeAdbServer(address)}`);
  }
  if (address.kind !== 'tcp' || !['127.0.0.1', 'localhost', '::1'].includes(address.host)) {
    throw new AdbError(
      'server_unreachable',
      `no adb server answers at ${describeAdbServer(address)}, and droidbus only starts local servers`,
    );
  }
  const adb = locateAdb();
  if (!adb) {
    throw new AdbError(
      'server_unreachable',
      'no adb server is running and no adb was found (ANDROID_HOME/platform-tools, ANDROID_SDK_ROOT, the default SDK folder, PATH). Install Android SDK Platform-Tools.',
    );
  }
  const result = await runProcess(adb, ['-P', String(address.port), 'start-server'], {
    timeoutMs: 30_000,
    ...(signal ? { signal } : {}),
  });
  if (result.code !== 0) {
    throw new AdbError(
      'server_unreachable',
      `${adb} start-server failed: ${(result.stderr || result.stdout).trim().slice(0, 300)}`,
    );
  }
  const version = await client.serverVersion(signal ? { signal } : {});
  return {
    started: true,
    version,
    adb,
    message: `no adb server was running, so droidbus started one with ${adb} on port ${address.port}`,
  };
}
