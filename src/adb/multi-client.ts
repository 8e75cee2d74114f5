import type { AdbSyncEntry, AdbSyncStat } from '@yume-chan/adb';
import { AdbClient } from './client.js';
import type { ApkSource, CommandOptions, ShellResult } from './client.js';
import type { ServiceOptions } from './connection.js';
import { AdbError } from './errors.js';
import { describeAdbServer } from './server-address.js';
import type { AdbServers, AdbServerSpec } from './servers.js';
import type { ShellCommand } from './shell-command.js';

/**
 * An adb client over several adb servers: every device call names its device by id
 * (`LABEL/serial`), which picks the server and the serial there; server-wide calls (`devices`,
 * `connect`) go to the first server. Errors name the device by id and its server.
 */
export class MultiAdbClient extends AdbClient {
  private readonly clients = new Map<string, AdbClient>();

  constructor(private readonly servers: AdbServers) {
    super(servers.primary.address);
    for (const s of servers.list) {
      this.clients.set(s.label, new AdbClient(s.address));
    }
  }

  /** The client of one server. */
  clientOf(label: string): AdbClient | undefined {
    return this.clients.get(label);
  }

  /** The server and serial behind an id; an error naming the servers when it names none. */
  private target(id: string): { client: AdbClient; serial: string; server: AdbServerSpec } {
    const r = this.servers.route(id);
    if (r === null) {
      throw new AdbError(
        'device_not_found',
        `device '${id}' names no adb server droidbus serves (${this.servers.list.map((s) => s.label).join(', ')}): write it LABEL/serial as list_devices shows it`,
      );
    }
    return { client: this.clients.get(r.server.label) as AdbClient, serial: r.serial, server: r.server };
  }

  private async via<T>(id: string, call: (client: AdbClient, serial: string) => Promise<T>): Promise<T> {
    const t = this.target(id);
    try {
      return await call(t.client, t.serial);
    } catch (err) {
      throw err instanceof AdbError ? named(err, id, t.serial, t.server) : err;
    }
  }

  override forward(id: string, remote: string, options?: CommandOptions): Promise<number> {
    return this.via(id, (c, s) => c.forward(s, remote, options));
  }

  override removeForward(id: string, port: number, options?: CommandOptions): Promise<void> {
    return this.via(id, (c, s) => c.removeForward(s, port, options));
  }

  override features(id: string): Promise<string[]> {
    return this.via(id, (c, s) => c.features(s));
  }

  override forget(id: string): void {
    const r = this.servers.route(id);
    if (r !== null) {
      this.target(id).client.forget(r.serial);
    }
  }

  override shell(id: string, command: ShellCommand, options?: CommandOptions): Promise<ShellResult> {
    return this.via(id, (c, s) => c.shell(s, command, options));
  }

  override shellBytes(
    id: string,
    command: ShellCommand,
    options?: CommandOptions,
  ): Promise<{ stdout: Buffer; stderr: Buffer; exitCode: number | null }> {
    return this.via(id, (c, s) => c.shellBytes(s, command, options));
  }

  override exec(
    id: string,
    command: ShellCommand,
    options?: CommandOptions & { input?: ServiceOptions['input'] },
  ): Promise<Buffer> {
    return this.via(id, (c, s) => c.exec(s, command, options));
  }

  override async *stream(id: string, command: ShellCommand, signal: AbortSignal): AsyncGenerator<Buffer> {
    const t = this.target(id);
    try {
      yield* t.client.stream(t.serial, command, signal);
    } catch (err) {
      throw err instanceof AdbError ? named(err, id, t.serial, t.server) : err;
    }
  }

  override open(id: string, service: string, options?: CommandOptions) {
    try {
      const t = this.target(id);
      return t.client.open(t.serial, service, options);
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  override stat(id: string, path: string): Promise<AdbSyncStat> {
    return this.via(id, (c, s) => c.stat(s, path));
  }

  override lstat(id: string, path: string): Promise<AdbSyncStat | null> {
    return this.via(id, (c, s) => c.lstat(s, path));
  }

  override list(id: string, path: string, maxEntries?: number): Promise<AdbSyncEntry[]> {
    return this.via(id, (c, s) => c.list(s, path, maxEntries));
  }

  override pull(id: string, path: string, maxBytes?: number): Promise<Buffer> {
    return this.via(id, (c, s) => c.pull(s, path, maxBytes));
  }

  override push(id: string, path: string, data: Uint8Array, mode?: number, mtime?: number): Promise<void> {
    return this.via(id, (c, s) => c.push(s, path, data, mode, mtime));
  }

  override install(
    id: string,
    apk: ApkSource,
    options?: CommandOptions & { replace?: boolean; allowTest?: boolean },
  ): Promise<string> {
    return this.via(id, (c, s) => c.install(s, apk, options));
  }
}

/** The error with the device's id for its serial, and which server it came through. */
function named(err: AdbError, id: string, serial: string, server: AdbServerSpec): AdbError {
  const message = err.message.split(`'${serial}'`).join(`'${id}'`);
  const where = `adb server ${server.label} (${describeAdbServer(server.address)})`;
  return new AdbError(err.kind, message.includes(where) ? message : `${message} [${where}]`);
}
