/**
 * One device as droidbus's actors use it: its serial, its adb transport and what is known of it
 * (its adb features, its API level), every failure a bus error. An actor holds the handle of its
 * device (the device actor) or asks `deviceOf` for one (the actors that serve many devices); no
 * module outside src/device talks to the adb client for a device (tests/guards/device-layer.test.ts).
 */
import type { AdbSyncEntry, AdbSyncStat } from '@yume-chan/adb';
import type { AdbClient, ApkSource, CommandOptions, ShellResult } from '../adb/client.js';
import type { ServiceOptions } from '../adb/connection.js';
import type { ShellCommand } from '../adb/shell-command.js';
import { busErrorFromAdb, withAdbErrors } from './adb-errors.js';
import type { PayloadOf, ResponseOf } from '../bus/registry.js';
import {
  READS,
  readCommand,
  type DeviceRead,
  type DeviceRequest,
  type ReadAnswer,
  type ReadFill,
} from './reads.js';

export type { ShellResult } from '../adb/client.js';
/** A command's cancellation, deadline and output bound. */
export type DeviceCallOptions = CommandOptions;

export class Device {
  private sdkLevel: Promise<number | null> | undefined;

  constructor(
    readonly serial: string,
    private readonly adb: AdbClient,
  ) {}

  /** The device's adb features (shell_v2, cmd, …), asked once. */
  features(): Promise<string[]> {
    return withAdbErrors(() => this.adb.features(this.serial));
  }

  /** Its API level (`ro.build.version.sdk`), read once; null when the device does not say. */
  sdk(signal?: AbortSignal): Promise<number | null> {
    if (this.sdkLevel === undefined) {
      const asked = this.shell(readCommand(READS.sdk), {
        timeoutMs: 10_000,
        ...(signal ? { signal } : {}),
      }).then((r) => {
        const n = Number(r.stdout.trim());
        return Number.isInteger(n) && n > 0 ? n : null;
      });
      asked.catch(() => (this.sdkLevel = undefined));
      this.sdkLevel = asked;
    }
    return this.sdkLevel;
  }

  /** The device's state as its adb server lists it now (`device`, `offline`…), null when not listed. */
  async adbState(options: DeviceCallOptions = {}): Promise<string | null> {
    const listed = await withAdbErrors(() => this.adb.devices(options));
    return listed.find((d) => d.serial === this.serial)?.state ?? null;
  }

  /** A shell command; exit code and stderr apart where the device has shell v2. */
  shell(command: ShellCommand, options: DeviceCallOptions = {}): Promise<ShellResult> {
    return withAdbErrors(() => this.adb.shell(this.serial, command, options));
  }

  /** A catalogue read's output, its slots filled. */
  read(read: DeviceRead, fill: ReadFill = {}, options: DeviceCallOptions = {}): Promise<ShellResult> {
    return this.shell(readCommand(read, fill), options);
  }

  /** A request a catalogue read answers alone (READ_ANSWERS): the read, then its parser. */
  async answer<T extends DeviceRequest>(
    answer: ReadAnswer<T>,
    payload: PayloadOf<T>,
    options: DeviceCallOptions = {},
  ): Promise<ResponseOf<T>> {
    const out = await this.read(answer.read, answer.fill?.(payload) ?? {}, options);
    return answer.parse(out.stdout, payload);
  }

  /** A shell command's output bytes as the device wrote them. */
  shellBytes(
    command: ShellCommand,
    options: DeviceCallOptions = {},
  ): Promise<{ stdout: Buffer; stderr: Buffer; exitCode: number | null }> {
    return withAdbErrors(() => this.adb.shellBytes(this.serial, command, options));
  }

  /** A command's raw stdout (`exec:`: screencap, dumps), optionally fed `input`. */
  exec(
    command: ShellCommand,
    options: DeviceCallOptions & { input?: ServiceOptions['input'] } = {},
  ): Promise<Buffer> {
    return withAdbErrors(() => this.adb.exec(this.serial, command, options));
  }

  /** A long-running command's stdout (logcat) until it ends or `signal` aborts. */
  async *stream(command: ShellCommand, signal: AbortSignal): AsyncGenerator<Buffer> {
    try {
      yield* this.adb.stream(this.serial, command, signal);
    } catch (err) {
      throw busErrorFromAdb(err);
    }
  }

  /** A raw device service, for callers that keep the socket (the UI helper's instrumentation). */
  open(service: string, options: DeviceCallOptions = {}): ReturnType<AdbClient['open']> {
    return withAdbErrors(() => this.adb.open(this.serial, service, options));
  }

  /** A free local TCP port forwarded to `remote` on the device. */
  forward(remote: string, options: DeviceCallOptions = {}): Promise<number> {
    return withAdbErrors(() => this.adb.forward(this.serial, remote, options));
  }

  /** Connections to `device` on the phone (`tcp:8080`) reach `host` here (`adb reverse`). */
  reverse(device: string, host: string, options: DeviceCallOptions = {}): Promise<void> {
    return withAdbErrors(() => this.adb.reverse(this.serial, device, host, options));
  }

  removeReverse(device: string, options: DeviceCallOptions = {}): Promise<void> {
    return withAdbErrors(() => this.adb.removeReverse(this.serial, device, options));
  }

  removeForward(port: number, options: DeviceCallOptions = {}): Promise<void> {
    return withAdbErrors(() => this.adb.removeForward(this.serial, port, options));
  }

  /** A file's stat (symlinks followed). */
  stat(path: string): Promise<AdbSyncStat> {
    return withAdbErrors(() => this.adb.stat(this.serial, path));
  }

  /** A file's lstat; null when nothing is there. */
  lstat(path: string): Promise<AdbSyncStat | null> {
    return withAdbErrors(() => this.adb.lstat(this.serial, path));
  }

  /** A folder's entries as lstat sees them, at most `maxEntries`. */
  list(path: string, maxEntries?: number): Promise<AdbSyncEntry[]> {
    return withAdbErrors(() => this.adb.list(this.serial, path, maxEntries));
  }

  /** A whole file, at most `maxBytes`. */
  pull(path: string, maxBytes?: number): Promise<Buffer> {
    return withAdbErrors(() => this.adb.pull(this.serial, path, maxBytes));
  }

  /** Writes a file with its mode. */
  push(path: string, data: Uint8Array, mode?: number): Promise<void> {
    return withAdbErrors(() => this.adb.push(this.serial, path, data, mode));
  }

  /** Installs an APK streamed from `apk`; the package manager's answer. */
  install(
    apk: ApkSource,
    options: DeviceCallOptions & { replace?: boolean; allowTest?: boolean } = {},
  ): Promise<string> {
    return withAdbErrors(() => this.adb.install(this.serial, apk, options));
  }

  /** Forgets what is known of the device (it left, or came back). */
  forget(): void {
    this.sdkLevel = undefined;
    this.adb.forget(this.serial);
  }
}
