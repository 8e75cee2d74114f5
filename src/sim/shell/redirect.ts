/**
 * Evidence: POSIX Shell Command Language 2.7 (redirection) and mksh's `&>` (external/mksh/src/syn.c).
 */
import { errnoText, type MemFs } from '../device/fs.js';
import type { Redir } from './ast.js';
import { absPath } from './command.js';
import type { Expander } from './expand.js';
import { safeWrite, type State, type Streams } from './shell-state.js';
import {
  BytesInput,
  CollectOutput,
  EMPTY_INPUT,
  NULL_OUTPUT,
  toBytes,
  type InputStream,
  type OutputStream,
} from './streams.js';

type Fd = InputStream | OutputStream;

/** A file a redirection writes; its bytes land in the file system when the command ends. */
export interface OpenFile {
  path: string;
  append: boolean;
  chunks: Uint8Array[];
}

function asInput(fd: Fd | undefined): InputStream {
  return fd !== undefined && 'read' in fd ? fd : EMPTY_INPUT;
}

function asOutput(fd: Fd | undefined): OutputStream {
  return fd !== undefined && 'write' in fd ? fd : NULL_OUTPUT;
}

/** Applies `>`, `>>`, `<`, `2>&1`, `&>`, `>&2` and /dev names to a command's streams. */
export class Redirector {
  constructor(
    private readonly fs: MemFs,
    private readonly expander: Expander,
  ) {}

  async open(
    redirs: Redir[],
    state: State,
    streams: Streams,
  ): Promise<{ streams: Streams; files: OpenFile[] } | null> {
    if (redirs.length === 0) {
      return { streams, files: [] };
    }
    const fds = new Map<number, Fd>([
      [0, streams.stdin],
      [1, streams.stdout],
      [2, streams.stderr],
    ]);
    const files: OpenFile[] = [];
    for (const r of redirs) {
      const target = await this.expander.string(r.target, state, streams);
      try {
        this.applyRedir(r, target, fds, files, state);
      } catch (err) {
        const verb = r.op === '<' || r.op === '<>' ? 'open' : 'create';
        await safeWrite(streams.stderr, `${state.argv0}: can't ${verb} ${target}: ${errnoText(err)}\n`);
        this.close(files);
        return null;
      }
    }
    return {
      streams: {
        stdin: asInput(fds.get(0)),
        stdout: asOutput(fds.get(1)),
        stderr: asOutput(fds.get(2)),
        signal: streams.signal,
      },
      files,
    };
  }

  private applyRedir(r: Redir, target: string, fds: Map<number, Fd>, files: OpenFile[], state: State): void {
    if ((r.op === '>&' || r.op === '<&') && /^(\d+|-)$/.test(target)) {
      if (target === '-') {
        fds.set(r.fd, r.op === '>&' ? NULL_OUTPUT : EMPTY_INPUT);
      } else {
        const src = fds.get(Number(target));
        if (src === undefined) {
          throw new Error('bad file descriptor');
        }
        fds.set(r.fd, src);
      }
      return;
    }
    const op = r.op === '>&' ? '&>' : r.op;
    if (op === '<' || op === '<>' || op === '<&') {
      fds.set(r.fd, this.openInput(target, state, fds));
      return;
    }
    const out = this.openOutput(target, op === '>>', files, state, fds);
    if (op === '&>') {
      fds.set(1, out);
      fds.set(2, out);
    } else {
      fds.set(r.fd, out);
    }
  }

  private openInput(target: string, state: State, fds: Map<number, Fd>): InputStream {
    switch (target) {
      case '/dev/null':
        return EMPTY_INPUT;
      case '/dev/stdin':
      case '/dev/tty':
        return asInput(fds.get(0));
    }
    return new BytesInput(this.fs.read(absPath(state, target)));
  }

  private openOutput(
    target: string,
    append: boolean,
    files: OpenFile[],
    state: State,
    fds: Map<number, Fd>,
  ): OutputStream {
    switch (target) {
      case '/dev/null':
      case '/dev/zero':
        return NULL_OUTPUT;
      case '/dev/stdout':
      case '/dev/tty':
        return asOutput(fds.get(1));
      case '/dev/stderr':
        return asOutput(fds.get(2));
    }
    const path = absPath(state, target);
    const fs = this.fs;
    if (!append || fs.tryResolve(path, true) === null) {
      fs.writeFile(path, new Uint8Array(0));
    } else {
      fs.writeFile(path, new Uint8Array(0), { append: true });
    }
    const file: OpenFile = { path, append: true, chunks: [] };
    files.push(file);
    return {
      write: (chunk) => {
        file.chunks.push(toBytes(chunk));
        return Promise.resolve();
      },
    };
  }

  close(files: OpenFile[]): void {
    for (const f of files) {
      if (f.chunks.length === 0) {
        continue;
      }
      const collected = new CollectOutput();
      for (const c of f.chunks) {
        void collected.write(c);
      }
      f.chunks = [];
      try {
        this.fs.writeFile(f.path, collected.bytes(), { append: f.append });
      } catch {
        // The file went away while the command ran; its output is lost, as on a device.
      }
    }
  }
}
