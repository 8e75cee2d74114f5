/**
 * Evidence: none — the shell's state types.
 */
import type { InputStream, OutputStream } from './streams.js';

/** The three standard streams plus the signal that stops a command. */
export interface Streams {
  stdin: InputStream;
  stdout: OutputStream;
  stderr: OutputStream;
  signal: AbortSignal;
}

/** A shell's variables, positional parameters, last status and working directory. */
export interface State {
  vars: Map<string, string>;
  positional: string[];
  argv0: string;
  last: number;
  cwd: string;
}

/** Thrown by `exit`: unwinds to the shell (or subshell) that runs the script. */
export class ExitSignal {
  constructor(readonly code: number) {}
}

/** A subshell's copy of the state. */
export function cloneState(state: State): State {
  return {
    vars: new Map(state.vars),
    positional: [...state.positional],
    argv0: state.argv0,
    last: state.last,
    cwd: state.cwd,
  };
}

/** Writes an error message, ignoring a reader that has gone. */
export async function safeWrite(stream: OutputStream, text: string): Promise<void> {
  try {
    await stream.write(text);
  } catch {
    // Nobody is reading the error stream any more.
  }
}
