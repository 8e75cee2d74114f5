/**
 * Evidence: none — the interface every built-in implements.
 */
import type { MemFs } from '../device/fs.js';
import type { InputStream, OutputStream } from './streams.js';

/** What a built-in command gets: its arguments, its streams, the shell's state and the device (`host`). */
export interface CommandContext<H = unknown> {
  /** argv[0] is the command name as typed. */
  readonly argv: string[];
  readonly stdin: InputStream;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /** Aborted when the client goes away or the pipe this command writes to is closed. */
  readonly signal: AbortSignal;
  /** Shell variables, exported or not (the simulator does not distinguish). */
  readonly env: Map<string, string>;
  readonly fs: MemFs;
  readonly cwd: string;
  /** The device model behind the shell. */
  readonly host: H;
  /**
   * Runs a command line in a child shell with this command's streams (`sh -c`); `signal` replaces
   * the one it would end on (`nohup`: not when the client goes away).
   */
  runScript(script: string, argv0?: string, args?: string[], signal?: AbortSignal): Promise<number>;
  /** The command table, for `which` and `sh`. */
  hasCommand(name: string): boolean;
}

/** A built-in command: resolves to its exit status. */
export type CommandFn<H = unknown> = (ctx: CommandContext<H>) => Promise<number>;

/** Writes text to an output (no newline added). */
export function out(stream: OutputStream, text: string): Promise<void> {
  return stream.write(text);
}

/** Resolves a possibly relative path against the command's working directory. */
export function absPath(ctx: { cwd: string }, path: string): string {
  if (path.startsWith('/')) {
    return path;
  }
  return (ctx.cwd.endsWith('/') ? ctx.cwd : ctx.cwd + '/') + path;
}
