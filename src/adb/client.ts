import { ReadableStream } from '@yume-chan/stream-extra';
import type { AdbSyncEntry, AdbSyncStat } from '@yume-chan/adb';
import { AdbError } from './errors.js';
import { openService, runService, streamService } from './connection.js';
import type { ServiceOptions } from './connection.js';
import { parseDeviceList, readLengthPrefixed } from './device-list.js';
import type { AdbDeviceEntry } from './device-list.js';
import { resolveAdbServer } from './server-address.js';
import type { AdbServerAddress } from './server-address.js';
import { decodeShellV2 } from './shell-v2.js';
import type { ShellCommand } from './shell-command.js';
import { sh } from './shell-command.js';
import { TangoDevices } from './sync.js';

/** A shell command's outcome. */
export interface ShellResult {
  stdout: string;
  stderr: string;
  /** The exit code; null on a device without shell v2, where adb cannot report one. */
  exitCode: number | null;
}

export interface CommandOptions {
  signal?: AbortSignal;
  /** Default 30 s, the reference's timeout for every adb command. */
  timeoutMs?: number;
  maxBytes?: number;
}

/** A file to install: its size and its bytes, read once. */
export interface ApkSource {
  size: number;
  chunks: AsyncIterable<Uint8Array>;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The adb server client: one short-lived socket per command to the server (no `adb` process per
 * call), shell v2 for exit codes and separate stderr, `exec:` for binary output, streams for
 * logcat, and Tango's sync for files. Commands are `ShellCommand`s built with `sh`, so every
 * non-literal argument is quoted.
 */
export class AdbClient {
  private readonly featureCache = new Map<string, Promise<string[]>>();
  private readonly tango: TangoDevices;

  constructor(readonly address: AdbServerAddress = resolveAdbServer()) {
    this.tango = new TangoDevices(address);
  }

  /** A `host:` query whose answer is length-prefixed text. */
  async hostQuery(service: string, options: CommandOptions = {}): Promise<string> {
    const data = await runService(this.address, null, service, { timeoutMs: 10_000, ...options });
    return readLengthPrefixed(data);
  }

  /**
   * Forwards a free local TCP port to `remote` on the device (`adb forward tcp:0 REMOTE`); the
   * server picks the port and answers it after its second OKAY.
   */
  async forward(serial: string, remote: string, options: CommandOptions = {}): Promise<number> {
    const data = await runService(this.address, null, `host-serial:${serial}:forward:tcp:0;${remote}`, {
      timeoutMs: 10_000,
      ...options,
    });
    const rest = data.subarray(0, 4).toString('latin1') === 'OKAY' ? data.subarray(4) : data;
    const port = Number(readLengthPrefixed(rest));
    if (!Number.isInteger(port) || port <= 0) {
      throw new Error(`adb forward to ${remote} answered no port: ${rest.toString('latin1').slice(0, 100)}`);
    }
    return port;
  }

  /** Removes a forward made by `forward` (`adb forward --remove tcp:PORT`). */
  async removeForward(serial: string, port: number, options: CommandOptions = {}): Promise<void> {
    await runService(this.address, null, `host-serial:${serial}:killforward:tcp:${port}`, {
      timeoutMs: 10_000,
      ...options,
    });
  }

  /**
   * `adb reverse DEVICE HOST` (`reverse:forward:` on the device's transport): connections to DEVICE
   * on the phone reach HOST on this machine. adbd answers OKAY, or FAIL and why.
   */
  async reverse(serial: string, device: string, host: string, options: CommandOptions = {}): Promise<void> {
    reverseAnswer(
      await runService(this.address, serial, `reverse:forward:${device};${host}`, {
        timeoutMs: 10_000,
        ...options,
      }),
    );
  }

  /** Removes a reverse forward (`adb reverse --remove DEVICE`). */
  async removeReverse(serial: string, device: string, options: CommandOptions = {}): Promise<void> {
    reverseAnswer(
      await runService(this.address, serial, `reverse:killforward:${device}`, {
        timeoutMs: 10_000,
        ...options,
      }),
    );
  }

  /** The server's protocol version (41 for adb 1.0.41). */
  async serverVersion(options: CommandOptions = {}): Promise<number> {
    return parseInt(await this.hostQuery('host:version', options), 16);
  }

  /** Every device the server knows, in every state. */
  async devices(options: CommandOptions = {}): Promise<AdbDeviceEntry[]> {
    return parseDeviceList(await this.hostQuery('host:devices-l', options));
  }

  /** The device's features (shell_v2, cmd, …), cached until `forget`. */
  features(serial: string): Promise<string[]> {
    let cached = this.featureCache.get(serial);
    if (!cached) {
      cached = this.hostQuery(`host-serial:${serial}:features`).then((text) =>
        text.split(',').filter(Boolean),
      );
      cached.catch(() => this.featureCache.delete(serial));
      this.featureCache.set(serial, cached);
    }
    return cached;
  }

  /** Forgets what is cached about a device (it went away, or came back). */
  forget(serial: string): void {
    this.featureCache.delete(serial);
    this.tango.forget(serial);
  }

  /** `adb connect HOST:PORT`; returns the server's message. */
  async connect(target: string): Promise<string> {
    return this.hostQuery(`host:connect:${target}`);
  }

  /** `adb disconnect HOST:PORT`. */
  async disconnect(target: string): Promise<string> {
    return this.hostQuery(`host:disconnect:${target}`);
  }

  /** Runs a shell command; exit code and stderr separate where the device has shell v2. */
  async shell(serial: string, command: ShellCommand, options: CommandOptions = {}): Promise<ShellResult> {
    const r = await this.shellBytes(serial, command, options);
    return { stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8'), exitCode: r.exitCode };
  }

  /**
   * Runs a shell command and keeps its output's bytes as the device wrote them (UTF-16, CRLF):
   * through shell v2 without a pty where the device has it, else `exec:` (no pty either).
   */
  async shellBytes(
    serial: string,
    command: ShellCommand,
    options: CommandOptions = {},
  ): Promise<{ stdout: Buffer; stderr: Buffer; exitCode: number | null }> {
    const features = await this.features(serial);
    const opts: ServiceOptions = { timeoutMs: DEFAULT_TIMEOUT_MS, ...options };
    if (features.includes('shell_v2')) {
      return decodeShellV2(await runService(this.address, serial, `shell,v2,raw:${command}`, opts));
    }
    const out = await runService(this.address, serial, `shell:${command}`, opts);
    return { stdout: out, stderr: Buffer.alloc(0), exitCode: null };
  }

  /** Runs a command and returns its raw stdout bytes (`exec:`: no pty, no mangling; screencap, dumps). */
  async exec(
    serial: string,
    command: ShellCommand,
    options: CommandOptions & { input?: ServiceOptions['input'] } = {},
  ): Promise<Buffer> {
    return runService(this.address, serial, `exec:${command}`, { timeoutMs: DEFAULT_TIMEOUT_MS, ...options });
  }

  /** Streams a long-running command's stdout (logcat) until it ends or `signal` aborts. */
  stream(serial: string, command: ShellCommand, signal: AbortSignal): AsyncGenerator<Buffer> {
    return streamService(this.address, serial, `exec:${command}`, signal);
  }

  /** Opens a raw device service (for callers that manage the socket themselves). */
  open(serial: string, service: string, options: CommandOptions = {}) {
    return openService(this.address, serial, service, options);
  }

  /** A file's stat on the device (follows symlinks). */
  async stat(serial: string, path: string): Promise<AdbSyncStat> {
    const sync = await this.tango.sync(serial, await this.features(serial));
    try {
      return await sync.stat(path);
    } finally {
      await sync.dispose();
    }
  }

  /** A file's lstat on the device (a final symlink is not followed); null when nothing is there. */
  async lstat(serial: string, path: string): Promise<AdbSyncStat | null> {
    const sync = await this.tango.sync(serial, await this.features(serial));
    try {
      return await sync.lstat(path);
    } catch (err) {
      // stat v2 names the errno; v1 answers all zeros, which Tango reports as "lstat error".
      if (/ENOENT|ENOTDIR|lstat error/.test(err instanceof Error ? err.message : String(err))) {
        return null;
      }
      throw new AdbError(
        'failed',
        `cannot stat ${path}: ${err instanceof Error ? err.message : String(err)}`,
      );
    } finally {
      await sync.dispose();
    }
  }

  /** A device folder's entries as lstat sees them (symlinks are links), at most `maxEntries`. */
  async list(serial: string, path: string, maxEntries = 10_000): Promise<AdbSyncEntry[]> {
    const sync = await this.tango.sync(serial, await this.features(serial));
    try {
      const out: AdbSyncEntry[] = [];
      for await (const entry of sync.opendir(path)) {
        if (entry.name === '.' || entry.name === '..') {
          continue;
        }
        out.push(entry);
        if (out.length >= maxEntries) {
          break;
        }
      }
      return out;
    } finally {
      await sync.dispose();
    }
  }

  /** Reads a whole device file (bounded). */
  async pull(serial: string, path: string, maxBytes = 64 * 1024 * 1024): Promise<Buffer> {
    const sync = await this.tango.sync(serial, await this.features(serial));
    try {
      const chunks: Uint8Array[] = [];
      let size = 0;
      const reader = sync.read(path).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          break;
        }
        size += value.length;
        if (size > maxBytes) {
          await reader.cancel();
          throw new AdbError('too_large', `${path} is larger than ${maxBytes} bytes`);
        }
        chunks.push(value);
      }
      return Buffer.concat(chunks);
    } finally {
      await sync.dispose();
    }
  }

  /** Writes a device file with its mode and mtime. */
  async push(
    serial: string,
    path: string,
    data: Uint8Array,
    mode = 0o644,
    mtime = Math.floor(Date.now() / 1000),
  ): Promise<void> {
    const sync = await this.tango.sync(serial, await this.features(serial));
    try {
      await sync.write({
        filename: path,
        file: new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(data);
            controller.close();
          },
        }),
        permission: mode,
        mtime,
      });
    } finally {
      await sync.dispose();
    }
  }

  /**
   * Installs an APK streamed from `apk` (`cmd package install -S SIZE`, as `adb install` does on
   * devices with the `cmd` feature; else pushed to /data/local/tmp and `pm install`ed). Returns
   * the package manager's answer; a `Failure […]` answer throws.
   */
  async install(
    serial: string,
    apk: ApkSource,
    options: CommandOptions & { replace?: boolean; allowTest?: boolean } = {},
  ): Promise<string> {
    const flags = [options.replace !== false ? '-r' : null, options.allowTest !== false ? '-t' : null].filter(
      Boolean,
    ) as string[];
    const features = await this.features(serial);
    let answer: string;
    if (features.includes('cmd')) {
      const command = sh`cmd package install -S ${apk.size}` + (flags.length ? ' ' + flags.join(' ') : '');
      const out = await this.exec(serial, command as ShellCommand, {
        timeoutMs: 120_000,
        ...options,
        input: apk.chunks,
      });
      answer = out.toString('utf8').trim();
    } else {
      const chunks: Uint8Array[] = [];
      for await (const chunk of apk.chunks) {
        chunks.push(chunk);
      }
      const tmp = `/data/local/tmp/droidbus-${process.pid}-${Date.now()}.apk`;
      await this.push(serial, tmp, Buffer.concat(chunks));
      try {
        const result = await this.shell(
          serial,
          (sh`pm install` + (flags.length ? ' ' + flags.join(' ') : '') + ' ' + sh`${tmp}`) as ShellCommand,
          {
            timeoutMs: 120_000,
            ...options,
          },
        );
        answer = (result.stdout + result.stderr).trim();
      } finally {
        await this.shell(serial, sh`rm -f ${tmp}`).catch(() => undefined);
      }
    }
    if (!/^Success\b/m.test(answer)) {
      throw new AdbError(
        'failed',
        `install failed: ${answer.split('\n').slice(-3).join(' ').slice(0, 500) || 'no answer from the package manager'}`,
      );
    }
    return answer;
  }
}

/** adbd's answer to a reverse request: OKAY, or FAIL with a length-prefixed reason. */
function reverseAnswer(data: Buffer): void {
  const status = data.subarray(0, 4).toString('latin1');
  if (status === 'OKAY') {
    return;
  }
  const reason = status === 'FAIL' ? readLengthPrefixed(data.subarray(4)) : data.toString('latin1');
  throw new AdbError('failed', `adb reverse: ${reason.slice(0, 200) || 'no answer'}`);
}
