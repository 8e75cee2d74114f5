import { spawn } from 'node:child_process';
import type { HostRuntime } from '../bus/messages/host.js';
import { connectControl } from '../host/control-client.js';

/** A `droidbus host` the load test started, with its own data directory. */
export interface HostProcess {
  pid: number;
  /** The host's own figures over its socket (`host.runtime`). */
  runtime(): Promise<HostRuntime>;
  /** SIGKILL, as a crash or the OOM killer would end it; resolves once it has exited. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `droidbus host` and waits until it listens on `socketPath`. */
export async function startHostProcess(options: {
  cli: string;
  project: string | null;
  env: Record<string, string>;
  socketPath: string;
  cwd: string;
}): Promise<HostProcess> {
  const args = [options.cli, 'host', ...(options.project ? ['--project', options.project] : [])];
  const child = spawn(process.execPath, args, {
    env: options.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out = (out + c).slice(-8_000)));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err = (err + c).slice(-8_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 30_000;
  while (!out.includes('listening on')) {
    if (gone || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`droidbus host did not start: ${err.slice(-2000) || out.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    pid: child.pid ?? -1,
    async runtime() {
      const { client } = await connectControl(options.socketPath, 5_000);
      try {
        return await client.request('host.runtime', {});
      } finally {
        await client.close();
      }
    },
    async kill() {
      if (!gone) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    async stop() {
      if (!gone) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
