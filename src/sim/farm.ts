/**
 * Evidence: how emulators and network devices reach the adb server (`host:emulator:PORT`, `adb connect
 * HOST:PORT`: packages/modules/adb/SERVICES.TXT); notes/adb-facts.md.
 */
import { logger } from '../util/log.js';
import type { SimDevice, SimDeviceIdentity, SimDeviceOptions } from './device-api.js';
import { ensureAdbServer, resolveAdbPort } from './adbd/adb-server-launch.js';
import { CommandLog } from './adbd/command-log.js';
import type { AuthMode } from './adbd/connection.js';
import { AdbdListener } from './adbd/listener.js';
import { announceEmulator, connectDevice, disconnectDevice, listDevices } from './adbd/server-client.js';
import { stopChromium } from './device/webview/chromium.js';
import { EmulatorConsole, consoleTokenPath, ensureConsoleToken } from './emulator-console.js';
import { EMULATOR_MODELS, PHONE_MODELS } from './farm-catalog.js';
import { profileIdentity } from './device/profile-replay.js';
import type { DeviceProfile } from '../profile/profile-format.js';

const log = logger('sim');

export interface FarmOptions {
  /** TCP devices (`adb connect 127.0.0.1:PORT`). */
  devices: number;
  /** Emulators (`emulator-N`, console on N, adb on N+1). */
  emulators?: number;
  /** The adb server's port (default: ANDROID_ADB_SERVER_PORT, else 5037). */
  adbPort?: number;
  /** Start an adb server with the SDK's adb when none answers (default true). */
  startServer?: boolean;
  /** Appends one JSON line per device command to this file. */
  commandLog?: string;
  dumpLatencyMs?: number;
  helperLatencyMs?: number;
  logcatRate?: number;
  auth?: AuthMode;
  /** First console port tried for emulators (default 5554); taken pairs are skipped, as emulators do. */
  emulatorBasePort?: number;
  /** Largest adb payload the devices accept and send (default 1 MiB). */
  maxPayload?: number;
  /** How long a device may take to come online at the server (default 20 s). */
  readyTimeoutMs?: number;
  /** Builds each device model (default: the simulator's own `createSimDevice`). */
  createDevice?: (options: SimDeviceOptions) => SimDevice;
  /** Tells the person running the farm what it did on their behalf (started a server, made a token file). */
  notify?: (message: string) => void;
  /** The AVD name of each emulator, in order (default: the catalog model's). */
  avdNames?: readonly string[];
  /** Recorded devices: each becomes one more TCP device answering as the recording did. */
  profiles?: readonly DeviceProfile[];
  /** Called after an emulator went away because its console was told `kill`. */
  onEmulatorKilled?: (serial: string) => void;
}

/** One simulated device of a running farm. */
export interface FarmDevice {
  serial: string;
  kind: 'tcp' | 'emulator';
  /** The adb transport port (for an emulator, console port + 1). */
  port: number;
  consolePort?: number;
  model: string;
  sdk: number;
  /** The device model itself, for in-process users (load tests, demos). */
  device: SimDevice;
}

export interface Farm {
  adbPort: number;
  devices: FarmDevice[];
  /** Disconnects every device from the server, waits until it lists none of them, and frees everything. */
  stop(): Promise<void>;
}

interface Running extends FarmDevice {
  listener: AdbdListener;
  console?: EmulatorConsole;
  gone: boolean;
}

/** Runs `fn` over `items` with at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  });
  await Promise.all(workers);
}

function isAddressInUse(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

/**
 * The catalog emulator for an AVD: the one with that AVD name, else one of the API level the name
 * ends with (`…_API_33`), else the i-th.
 */
function emulatorModel(avdName: string | undefined, i: number): (typeof EMULATOR_MODELS)[number] {
  const byName = EMULATOR_MODELS.find((m) => m.avdName === avdName);
  const api = avdName !== undefined ? /API_(\d+)$/i.exec(avdName)?.[1] : undefined;
  const byApi = api !== undefined ? EMULATOR_MODELS.find((m) => m.sdk === Number(api)) : undefined;
  return byName ?? byApi ?? EMULATOR_MODELS[i % EMULATOR_MODELS.length]!;
}

/** Finds the first free console/adb port pair at or above `base`, the way an emulator picks its ports. */
async function listenEmulatorPorts(
  base: number,
  taken: Set<number>,
): Promise<{ console: EmulatorConsole; adb: AdbdListener }> {
  for (let consolePort = base; consolePort + 1 < 65536; consolePort += 2) {
    if (taken.has(consolePort)) {
      continue;
    }
    let console: EmulatorConsole | undefined;
    try {
      console = await EmulatorConsole.listen(consolePort);
      const adb = await AdbdListener.listen('127.0.0.1', consolePort + 1);
      taken.add(consolePort);
      return { console, adb };
    } catch (err) {
      await console?.close();
      if (!isAddressInUse(err)) {
        throw err;
      }
    }
  }
  throw new Error(`no free emulator port pair at or above ${base}`);
}

type Serve = (
  listener: AdbdListener,
  identity: SimDeviceIdentity,
  profile?: DeviceProfile,
  onRestart?: () => void,
) => SimDevice;

/** Makes a device for an identity and serves adbd's side of the protocol for it on a listener. */
function deviceServer(
  options: FarmOptions,
  createDevice: NonNullable<FarmOptions['createDevice']>,
  commandLog: CommandLog | undefined,
): Serve {
  return (listener, identity, profile, onRestart) => {
    const device = createDevice({
      identity,
      ...(profile !== undefined ? { profile } : {}),
      ...(options.dumpLatencyMs !== undefined ? { dumpLatencyMs: options.dumpLatencyMs } : {}),
      ...(options.helperLatencyMs !== undefined ? { helperLatencyMs: options.helperLatencyMs } : {}),
      ...(options.logcatRate !== undefined ? { logcatRate: options.logcatRate } : {}),
    });
    listener.attach({
      device,
      auth: options.auth ?? 'none',
      commandLog,
      log,
      ...(options.maxPayload !== undefined ? { maxPayload: options.maxPayload } : {}),
      ...(onRestart !== undefined ? { onRestart } : {}),
    });
    return device;
  };
}

/** A TCP device (`adb connect 127.0.0.1:PORT`) for the identity, on a port of its own. */
async function tcpDevice(
  serve: Serve,
  identity: (serial: string) => SimDeviceIdentity,
  profile?: DeviceProfile,
): Promise<Running> {
  const listener = await AdbdListener.listen('127.0.0.1', 0);
  const serial = `127.0.0.1:${listener.port}`;
  const id = identity(serial);
  const device = serve(listener, id, profile);
  return {
    serial,
    kind: 'tcp',
    port: listener.port,
    model: id.model,
    sdk: id.sdk,
    device,
    listener,
    gone: false,
  };
}

/** The i-th emulator: its console and adb ports, its console's commands (`kill` makes it vanish). */
async function emulatorDevice(
  options: FarmOptions,
  serve: Serve,
  i: number,
  taken: Set<number>,
): Promise<Running> {
  const model = emulatorModel(options.avdNames?.[i], i);
  const ports = await listenEmulatorPorts(options.emulatorBasePort ?? 5554, taken);
  const serial = `emulator-${ports.console.port}`;
  // adbd restarting (`adb root`) drops the transport; once the server has let it go, the emulator
  // announces itself again (the server ignores an announcement for a transport it still holds).
  const adbPort = resolveAdbPort(options.adbPort);
  const reannounce = (): void =>
    void waitUntilUnlisted(adbPort, new Set([serial]), 5_000)
      .then(() => announceEmulator(adbPort, ports.adb.port))
      .catch(() => undefined);
  const device = serve(ports.adb, { ...model, serial }, undefined, reannounce);
  const entry: Running = {
    serial,
    kind: 'emulator',
    port: ports.adb.port,
    consolePort: ports.console.port,
    model: model.model,
    sdk: model.sdk,
    device,
    listener: ports.adb,
    console: ports.console,
    gone: false,
  };
  ports.console.attach({
    device,
    avdName: options.avdNames?.[i] ?? model.avdName ?? 'Pixel_API',
    // The reply goes out first; the emulator then vanishes.
    onKill: () =>
      setImmediate(() => {
        void closeDevice(entry).then(() => options.onEmulatorKilled?.(serial));
      }),
  });
  return entry;
}

/** Makes the adb server see every device (connect or announce), until each is ready. */
async function introduce(running: Running[], adbPort: number, options: FarmOptions): Promise<void> {
  const readyTimeoutMs = options.readyTimeoutMs ?? 20_000;
  await eachLimited(running, 8, async (r) => {
    const ready = r.listener.waitReady(readyTimeoutMs);
    ready.catch(() => undefined);
    if (r.kind === 'tcp') {
      await connectDevice(adbPort, r.serial, options.auth === 'unauthorized');
    } else {
      await announceEmulator(adbPort, r.port);
    }
    await ready;
  });
}

/**
 * Starts a farm of simulated devices and makes the adb server see them: TCP devices connect through
 * `host:connect`, emulators announce themselves with `host:emulator`. Resolves once every device is
 * online at the server (or `unauthorized` under auth mode `unauthorized`).
 */
export async function startFarm(options: FarmOptions): Promise<Farm> {
  const adbPort = resolveAdbPort(options.adbPort);
  const notify = options.notify ?? ((message: string) => log.info(message));
  const emulators = options.emulators ?? 0;
  if (options.startServer !== false) {
    const started = await ensureAdbServer(adbPort);
    if (started.started) {
      notify(`no adb server answered on port ${adbPort}; started one with ${started.adb}`);
    }
  }
  const createDevice = options.createDevice ?? (await import('./control/index.js')).createSimDevice;
  if (emulators > 0 && ensureConsoleToken()) {
    notify(`created ${consoleTokenPath()} (emulator console token), as the emulator does`);
  }
  const commandLog = options.commandLog ? new CommandLog(options.commandLog) : undefined;
  const serve = deviceServer(options, createDevice, commandLog);
  const running: Running[] = [];

  const stop = async (): Promise<void> => {
    const tcp = running.filter((r) => r.kind === 'tcp' && !r.gone);
    await eachLimited(tcp, 8, async (r) => {
      await disconnectDevice(adbPort, r.serial).catch(() => undefined);
    });
    await Promise.all(running.map((r) => closeDevice(r)));
    // The WebViews' Chromium goes with the devices whose pages it held.
    await stopChromium();
    await waitUntilUnlisted(adbPort, new Set(running.map((r) => r.serial)), 5_000);
    commandLog?.close();
  };

  try {
    for (let i = 0; i < options.devices; i++) {
      const model = PHONE_MODELS[i % PHONE_MODELS.length]!;
      running.push(await tcpDevice(serve, (serial) => ({ ...model, serial })));
    }
    for (const profile of options.profiles ?? []) {
      running.push(await tcpDevice(serve, (serial) => profileIdentity(profile, serial), profile));
    }
    const taken = new Set<number>();
    for (let i = 0; i < emulators; i++) {
      running.push(await emulatorDevice(options, serve, i, taken));
    }
    await introduce(running, adbPort, options);
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }

  return {
    adbPort,
    devices: running.map(({ serial, kind, port, consolePort, model, sdk, device }) => ({
      serial,
      kind,
      port,
      ...(consolePort !== undefined ? { consolePort } : {}),
      model,
      sdk,
      device,
    })),
    stop,
  };
}

async function closeDevice(r: Running): Promise<void> {
  if (r.gone) {
    return;
  }
  r.gone = true;
  await Promise.all([r.listener.close(), r.console?.close()]);
  r.device.close();
}

/** Polls the server until none of `serials` is listed (a closed emulator socket takes ~250 ms to notice). */
async function waitUntilUnlisted(adbPort: number, serials: Set<string>, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    let listed: { serial: string }[];
    try {
      listed = await listDevices(adbPort);
    } catch {
      return; // No server, nothing listed.
    }
    if (!listed.some((d) => serials.has(d.serial))) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  log.warn('the adb server still lists some simulated devices after stop');
}
