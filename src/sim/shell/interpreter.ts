import type { MemFs } from '../device/fs.js';
import { errnoText } from '../device/fs.js';
import type { Command, List, Pipeline, SimpleCommand } from './ast.js';
import type { CommandContext, CommandFn } from './command.js';
import { absPath } from './command.js';
import { Expander, ExpansionError } from './expand.js';
import { parseCommandLine, ShellSyntaxError } from './parse.js';
import { Redirector } from './redirect.js';
import { cloneState, ExitSignal, safeWrite, type State, type Streams } from './shell-state.js';
import { BrokenPipeError, CollectOutput, EMPTY_INPUT, Pipe, type InputStream } from './streams.js';

export type { Streams } from './shell-state.js';

/** The name the shell reports itself by in error messages (`$0` of `adb shell`). */
export const SHELL_NAME = '/system/bin/sh';

/** Directories whose binaries the command table stands for. */
const BIN_DIRS = [
  '/system/bin/',
  '/system/xbin/',
  '/vendor/bin/',
  '/bin/',
  '/product/bin/',
  '/apex/com.android.runtime/bin/',
];

/** What a shell needs from the device it runs on. */
export interface ShellOptions<H> {
  fs: MemFs;
  host: H;
  commands: ReadonlyMap<string, CommandFn<H>>;
  /** Initial variables (PATH, HOME, …); copied, never changed. */
  env: ReadonlyMap<string, string>;
  /** The pid `$$` reports. */
  pid: number;
}

/** Runs one command line the way `/system/bin/sh -c LINE` would; resolves to the exit status. */
export async function runShell<H>(opts: ShellOptions<H>, line: string, streams: Streams): Promise<number> {
  const state: State = { vars: new Map(opts.env), positional: [], argv0: SHELL_NAME, last: 0, cwd: '/' };
  return new Interpreter(opts).runScript(line, state, streams);
}

class Interpreter<H> {
  private readonly expand: Expander;
  private readonly redirect: Redirector;

  constructor(private readonly opts: ShellOptions<H>) {
    this.expand = new Expander({
      fs: opts.fs,
      pid: opts.pid,
      substitute: async (list, state, streams) => {
        const collected = new CollectOutput();
        let code: number;
        try {
          code = await this.execList(list, cloneState(state), { ...streams, stdout: collected });
        } catch (err) {
          if (!(err instanceof ExitSignal)) {
            throw err;
          }
          code = err.code;
        }
        return { text: collected.text(), code };
      },
    });
    this.redirect = new Redirector(opts.fs, this.expand);
  }

  async runScript(line: string, state: State, streams: Streams): Promise<number> {
    let list: List;
    try {
      list = parseCommandLine(line);
    } catch (err) {
      if (err instanceof ShellSyntaxError) {
        await safeWrite(streams.stderr, `${state.argv0}: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
    try {
      return await this.execList(list, state, streams);
    } catch (err) {
      if (err instanceof ExitSignal) {
        return err.code;
      }
      if (err instanceof BrokenPipeError) {
        return 141;
      }
      throw err;
    }
  }

  private async execList(list: List, state: State, streams: Streams): Promise<number> {
    let status = state.last;
    for (const item of list) {
      if (streams.signal.aborted) {
        return 130;
      }
      if (item.background) {
        const child = cloneState(state);
        void this.execAndOr(item.andOr, child, { ...streams, stdin: EMPTY_INPUT }).catch(() => undefined);
        status = 0;
      } else {
        status = await this.execAndOr(item.andOr, state, streams);
      }
      state.last = status;
    }
    return status;
  }

  private async execAndOr(andOr: List[number]['andOr'], state: State, streams: Streams): Promise<number> {
    let status = await this.execPipeline(andOr.first, state, streams);
    for (const { op, pipeline } of andOr.rest) {
      state.last = status;
      if ((op === '&&' && status === 0) || (op === '||' && status !== 0)) {
        status = await this.execPipeline(pipeline, state, streams);
      }
    }
    return status;
  }

  private async execPipeline(pipeline: Pipeline, state: State, streams: Streams): Promise<number> {
    let status: number;
    const n = pipeline.cmds.length;
    if (n === 1) {
      status = await this.execCommand(pipeline.cmds[0] as Command, state, streams);
    } else {
      const pipes: Pipe[] = [];
      const controllers: AbortController[] = [];
      for (let i = 0; i < n - 1; i++) {
        const ctl = new AbortController();
        controllers.push(ctl);
        pipes.push(new Pipe(() => ctl.abort()));
      }
      const runs = pipeline.cmds.map(async (cmd, i) => {
        const ctl = controllers[i];
        const stage: Streams = {
          stdin: i === 0 ? streams.stdin : (pipes[i - 1] as Pipe),
          stdout: i === n - 1 ? streams.stdout : (pipes[i] as Pipe),
          stderr: streams.stderr,
          signal: ctl === undefined ? streams.signal : AbortSignal.any([streams.signal, ctl.signal]),
        };
        try {
          return await this.execCommand(cmd, i === n - 1 ? state : cloneState(state), stage);
        } catch (err) {
          if (err instanceof BrokenPipeError) {
            return 141;
          }
          if (err instanceof ExitSignal) {
            return err.code;
          }
          throw err;
        } finally {
          if (i < n - 1) {
            (pipes[i] as Pipe).end();
          }
          if (i > 0) {
            (pipes[i - 1] as Pipe).closeRead();
          }
        }
      });
      const statuses = await Promise.all(runs);
      status = statuses[n - 1] as number;
    }
    return pipeline.bang ? (status === 0 ? 1 : 0) : status;
  }

  private async execCommand(cmd: Command, state: State, streams: Streams): Promise<number> {
    if (cmd.k === 'simple') {
      return this.execSimple(cmd, state, streams);
    }
    const redirected = await this.redirect.open(cmd.redirs, state, streams);
    if (redirected === null) {
      return 1;
    }
    try {
      return await this.execCompound(cmd, state, redirected.streams);
    } finally {
      this.redirect.close(redirected.files);
    }
  }

  private async execCompound(
    cmd: Exclude<Command, SimpleCommand>,
    state: State,
    streams: Streams,
  ): Promise<number> {
    switch (cmd.k) {
      case 'group': {
        if (!cmd.subshell) {
          return this.execList(cmd.body, state, streams);
        }
        try {
          return await this.execList(cmd.body, cloneState(state), streams);
        } catch (err) {
          if (err instanceof ExitSignal) {
            return err.code;
          }
          throw err;
        }
      }
      case 'if': {
        for (const clause of cmd.clauses) {
          if ((await this.execList(clause.cond, state, streams)) === 0) {
            return this.execList(clause.body, state, streams);
          }
        }
        return cmd.otherwise === null ? 0 : this.execList(cmd.otherwise, state, streams);
      }
      case 'loop': {
        let status = 0;
        for (let guard = 0; guard < 1_000_000 && !streams.signal.aborted; guard++) {
          const cond = await this.execList(cmd.cond, state, streams);
          if ((cond === 0) === cmd.until) {
            break;
          }
          status = await this.execList(cmd.body, state, streams);
          // Yield to the event loop so an endless loop cannot starve other devices.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        return status;
      }
      case 'for': {
        const items =
          cmd.items === null ? state.positional : await this.expand.words(cmd.items, state, streams);
        let status = 0;
        for (const item of items) {
          if (streams.signal.aborted) {
            break;
          }
          state.vars.set(cmd.name, item);
          status = await this.execList(cmd.body, state, streams);
        }
        return status;
      }
    }
  }

  private async execSimple(cmd: SimpleCommand, state: State, streams: Streams): Promise<number> {
    const substStatus = { value: -1 };
    let argv: string[];
    try {
      argv = await this.expand.words(cmd.words, state, streams, substStatus);
    } catch (err) {
      if (err instanceof ExpansionError) {
        await safeWrite(streams.stderr, `${state.argv0}: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
    const assigns: [string, string][] = [];
    for (const a of cmd.assigns) {
      assigns.push([a.name, await this.expand.string(a.value, state, streams, substStatus)]);
    }
    if (argv.length === 0) {
      for (const [k, v] of assigns) {
        state.vars.set(k, v);
      }
      const redirected = await this.redirect.open(cmd.redirs, state, streams);
      if (redirected === null) {
        return 1;
      }
      this.redirect.close(redirected.files);
      return substStatus.value >= 0 ? substStatus.value : 0;
    }
    const redirected = await this.redirect.open(cmd.redirs, state, streams);
    if (redirected === null) {
      return 1;
    }
    try {
      return await this.invoke(argv, assigns, state, redirected.streams);
    } finally {
      this.redirect.close(redirected.files);
    }
  }

  private async invoke(
    argv: string[],
    assigns: [string, string][],
    state: State,
    streams: Streams,
  ): Promise<number> {
    const name = argv[0] as string;
    const special = await this.specialBuiltin(argv, state, streams);
    if (special !== null) {
      return special;
    }
    const fn = this.lookup(name);
    if (fn === undefined) {
      await safeWrite(streams.stderr, `${state.argv0}: ${name}: inaccessible or not found\n`);
      return 127;
    }
    const env = assigns.length === 0 ? state.vars : new Map([...state.vars, ...assigns]);
    const ctx: CommandContext<H> = {
      argv,
      stdin: streams.stdin,
      stdout: streams.stdout,
      stderr: streams.stderr,
      signal: streams.signal,
      env,
      fs: this.opts.fs,
      cwd: state.cwd,
      host: this.opts.host,
      runScript: (script, argv0, args, signal) => {
        const child: State = {
          vars: new Map(env),
          positional: args ?? [],
          argv0: argv0 ?? SHELL_NAME,
          last: 0,
          cwd: state.cwd,
        };
        return this.runScript(script, child, signal === undefined ? streams : { ...streams, signal });
      },
      hasCommand: (n) => this.lookup(n) !== undefined || SPECIAL.has(n),
    };
    try {
      return await fn(ctx);
    } catch (err) {
      if (err instanceof BrokenPipeError) {
        return 141;
      }
      if (err instanceof ExitSignal) {
        throw err;
      }
      await safeWrite(streams.stderr, `${baseName(name)}: ${errnoText(err)}\n`);
      return 1;
    }
  }

  private lookup(name: string): CommandFn<H> | undefined {
    if (!name.includes('/')) {
      return this.opts.commands.get(name);
    }
    for (const dir of BIN_DIRS) {
      if (name.startsWith(dir) && !name.slice(dir.length).includes('/')) {
        return this.opts.commands.get(name.slice(dir.length));
      }
    }
    return undefined;
  }

  /** Built-ins that change the shell itself; null when `argv` is not one of them. */
  private async specialBuiltin(argv: string[], state: State, streams: Streams): Promise<number | null> {
    const [name, ...args] = argv as [string, ...string[]];
    switch (name) {
      case 'exit': {
        const code = args[0] === undefined ? state.last : Number.parseInt(args[0], 10);
        throw new ExitSignal(Number.isNaN(code) ? 2 : code & 0xff);
      }
      case 'cd': {
        const target = absPath(state, args[0] ?? state.vars.get('HOME') ?? '/');
        try {
          const info = this.opts.fs.info(target, true);
          if (info.node.type !== 'dir') {
            await safeWrite(streams.stderr, `${state.argv0}: cd: ${args[0] ?? ''}: Not a directory\n`);
            return 2;
          }
          state.cwd = this.opts.fs.normalize(target);
          return 0;
        } catch (err) {
          await safeWrite(streams.stderr, `${state.argv0}: cd: ${args[0] ?? ''}: ${errnoText(err)}\n`);
          return 2;
        }
      }
      case 'export':
      case 'readonly':
      case 'local':
      case 'typeset': {
        for (const a of args) {
          const eq = a.indexOf('=');
          if (eq > 0) {
            state.vars.set(a.slice(0, eq), a.slice(eq + 1));
          }
        }
        return 0;
      }
      case 'unset':
        for (const a of args) {
          state.vars.delete(a);
        }
        return 0;
      case 'set': {
        const dd = args.indexOf('--');
        if (dd >= 0) {
          state.positional = args.slice(dd + 1);
        }
        return 0;
      }
      case 'shift': {
        const n = args[0] === undefined ? 1 : Number.parseInt(args[0], 10);
        state.positional = state.positional.slice(Number.isNaN(n) ? 1 : n);
        return 0;
      }
      case 'eval':
        return this.runScriptIn(args.join(' '), state, streams);
      case 'exec':
        if (args.length === 0) {
          return 0;
        }
        throw new ExitSignal(await this.invoke(args, [], state, streams));
      case 'wait':
      case 'trap':
      case 'ulimit':
        return 0;
      case 'read': {
        const line = await readLine(streams.stdin);
        if (line === null) {
          return 1;
        }
        const names = args.filter((a) => !a.startsWith('-'));
        const fields = line.trim().split(/[ \t]+/);
        names.forEach((n, idx) => {
          state.vars.set(n, idx === names.length - 1 ? fields.slice(idx).join(' ') : (fields[idx] ?? ''));
        });
        return 0;
      }
      default:
        return null;
    }
  }

  private async runScriptIn(script: string, state: State, streams: Streams): Promise<number> {
    let list: List;
    try {
      list = parseCommandLine(script);
    } catch (err) {
      if (err instanceof ShellSyntaxError) {
        await safeWrite(streams.stderr, `${state.argv0}: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
    return this.execList(list, state, streams);
  }
}

async function readLine(input: InputStream): Promise<string | null> {
  // `read` consumes a whole chunk; good enough for the one-line answers scripts feed it.
  const chunk = await input.read();
  if (chunk === null) {
    return null;
  }
  const text = new TextDecoder().decode(chunk);
  const nl = text.indexOf('\n');
  return nl >= 0 ? text.slice(0, nl) : text;
}

function baseName(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

const SPECIAL = new Set([
  'exit',
  'cd',
  'export',
  'readonly',
  'local',
  'typeset',
  'unset',
  'set',
  'shift',
  'eval',
  'exec',
  'wait',
  'trap',
  'ulimit',
  'read',
]);
