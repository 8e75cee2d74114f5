import type { Duplex } from 'node:stream';
import type { DeviceProfile } from '../profile/profile-format.js';

/**
 * The contract between the simulated adbd transport (src/sim/adbd, src/sim/farm.ts) and the device
 * model behind it (src/sim/device, src/sim/shell). The transport speaks the adb protocol and knows
 * nothing about Android; the device knows Android and nothing about the wire.
 */

/** Where a command's output goes. Each write resolves when the transport has room again (flow control). */
export interface ShellIo {
  /** Writes to the command's stdout. For `shell:` (v1) and `exec:` stdout is the only stream. */
  stdout(chunk: Uint8Array | string): Promise<void>;
  /** Writes to stderr. Under shell v1 and `exec:` the transport merges it into stdout (as adbd does with a pty). */
  stderr(chunk: Uint8Array | string): Promise<void>;
  /** Bytes the client sends to the command (shell v2 stdin packets, or WRTE data for `exec:`); ends on close-stdin. */
  stdin: AsyncIterable<Uint8Array>;
  /** Aborted when the client closes the stream or the device goes away: streaming commands (logcat) must stop. */
  signal: AbortSignal;
}

/** One filesystem entry as `sync:` reports it. */
export interface SimStat {
  /** st_mode, file type bits included (0o100644 for a regular file, 0o040755 for a directory). */
  mode: number;
  size: number;
  /** Modification time, seconds since the epoch. */
  mtime: number;
}

/** An errno the sync service reports as FAIL (`No such file or directory`, …). */
export class SimFsError extends Error {
  constructor(
    readonly errno: 'ENOENT' | 'EACCES' | 'EISDIR' | 'ENOTDIR' | 'EEXIST' | 'ENOTEMPTY' | 'EINVAL' | 'EROFS',
    message: string,
  ) {
    super(message);
  }
}

/** The device's in-memory filesystem, as the sync service sees it. Paths are absolute device paths. */
export interface SimFs {
  /** Follows symlinks (STAT/STA2). Throws SimFsError. */
  stat(path: string): SimStat;
  /** Does not follow a final symlink (LSTAT/LST2). Throws SimFsError. */
  lstat(path: string): SimStat;
  /** Directory entries (names, not paths) with their lstat. Throws SimFsError. */
  list(path: string): { name: string; stat: SimStat }[];
  /** A regular file's bytes. Throws SimFsError. */
  read(path: string): Uint8Array;
  /**
   * Creates or replaces a regular file (parent directories must exist). `mode` is the full st_mode
   * (`0o100000 | permissions`, as `sync:` SEND passes it); `mtime` is in seconds. Throws SimFsError.
   */
  write(path: string, data: Uint8Array, mode: number, mtime: number): void;
  /**
   * Optional: creates a directory and its missing parents (`mkdir -p`). `sync:` SEND calls it when
   * the parent of the pushed file is missing, as adbd does. Throws SimFsError.
   */
  mkdirs?(path: string): void;
}

/** Static identity of a simulated device, as it appears in the CNXN banner and `getprop`. */
export interface SimDeviceIdentity {
  /** The serial adb will list: `127.0.0.1:PORT` for TCP devices, `emulator-N` for emulators. */
  serial: string;
  product: string;
  model: string;
  device: string;
  /** ro.build.version.sdk */
  sdk: number;
  /** ro.build.version.release */
  release: string;
  /** ro.product.manufacturer (default Google): some builds print what their maker's framework does. */
  manufacturer?: string;
  /** Physical screen size in pixels (portrait). */
  width: number;
  height: number;
  density: number;
  /** Set for emulators: what `adb emu avd name` answers. */
  avdName?: string;
}

/** One transport's reverse listeners, as the device reaches the host through them. */
export interface ReverseRoute {
  /** Opens a connection through the listener on `local` (`tcp:8080`); undefined when there is none. */
  connect(local: string): Promise<Duplex> | undefined;
}

/** What a simulated device exposes to the transport and the emulator console. */
export interface SimDevice {
  readonly identity: SimDeviceIdentity;
  readonly fs: SimFs;
  /**
   * Runs one command line through the device shell (`shell:CMD`, `shell,v2,…:CMD`, `exec:CMD`).
   * An empty command line means an interactive shell; the simulator may answer it with exit 1.
   * Resolves to the exit code (127 for an unknown command, as `/system/bin/sh` does).
   */
  run(commandLine: string, io: ShellIo): Promise<number>;
  /**
   * Optional: a socket on the device listening on `port` (`tcp:PORT`, as `adb forward` reaches it):
   * returns what takes a new connection, or undefined when nothing listens there.
   */
  acceptTcp?(port: number): ((socket: Duplex) => void) | undefined;
  /**
   * Optional: an abstract unix socket `name` (`localabstract:NAME`, as `adb forward` reaches a
   * WebView's devtools socket): what takes a new connection, or undefined when nothing listens.
   */
  acceptAbstract?(name: string): ((socket: Duplex) => void) | undefined;
  /**
   * Optional: a transport's `adb reverse` listeners offered to the device, so that a connection an
   * app opens to one of them reaches the host. Returns what withdraws them (the transport ended).
   */
  attachReverse?(route: ReverseRoute): () => void;
  /**
   * Optional: the adb features this device's adbd advertises in its banner (default: every one the
   * simulated adbd implements). An old device's adbd has fewer: no shell_v2 before Android 7.
   */
  readonly features?: readonly string[];
  /**
   * Optional: `adb root` (`on`) or `adb unroot`: what adbd answers. A line starting `restarting`
   * means adbd restarts with the new user, so the transport drops and the server reconnects.
   */
  adbRoot?(on: boolean): string;
  /** Emulator console `geo fix LONGITUDE LATITUDE [ALTITUDE]`. */
  setLocation(longitude: number, latitude: number, altitude?: number): void;
  /** Stops everything the device runs (logcat generators, timers). */
  close(): void;
}

/** Options for creating a device model. */
export interface SimDeviceOptions {
  identity: SimDeviceIdentity;
  /** How long `uiautomator dump` takes, ms (default 700). */
  dumpLatencyMs?: number;
  /** How long the simulated UiAutomator2 helper takes to answer a request, ms (default 100). */
  helperLatencyMs?: number;
  /** Background logcat lines per second the generator emits (default 5; 0 for none). */
  logcatRate?: number;
  /** Java crashes per minute injected into the sample app's log (default 0). */
  crashesPerMinute?: number;
  /** ANRs per minute (default 0). */
  anrsPerMinute?: number;
  /** A recorded device to answer as (`droidbus sim --profile`). */
  profile?: DeviceProfile;
}
