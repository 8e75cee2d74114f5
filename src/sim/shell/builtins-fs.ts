/**
 * Evidence: toybox's ls, rm, rmdir, mkdir, touch, cp, mv, chmod, ln, realpath, readlink and the hash
 * commands (toybox/toys/posix/ls.c: `ls -l`'s columns and date; toys/lsb/md5sum.c).
 */
import { createHash } from 'node:crypto';
import { errnoText, userName, type FsNode, type NodeInfo } from '../device/fs.js';
import type { CommandContext, CommandFn } from './command.js';
import { absPath } from './command.js';
import { parseFlags } from './builtins-text.js';
import { readAll } from './streams.js';

/** `drwxrwx--x` for a node. */
export function modeString(node: FsNode): string {
  const type = node.type === 'dir' ? 'd' : node.type === 'link' ? 'l' : node.type === 'chr' ? 'c' : '-';
  const p = node.perm;
  const triple = (shift: number, special: number, specialChar: string): string => {
    const r = p & (4 << shift) ? 'r' : '-';
    const w = p & (2 << shift) ? 'w' : '-';
    const x = p & (1 << shift);
    const s = p & special;
    const xc = s ? (x ? specialChar : specialChar.toUpperCase()) : x ? 'x' : '-';
    return r + w + xc;
  };
  return type + triple(6, 0o4000, 's') + triple(3, 0o2000, 's') + triple(0, 0o1000, 't');
}

/** Two digits. */
export function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** `2024-01-31 13:05` in the device's local time, as toybox `ls -l` prints it. */
export function lsDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** 1 KiB blocks a node occupies (what `ls -l` totals and `stat %b` halves). */
export function blocks(info: NodeInfo): number {
  return info.node.type === 'file' ? Math.ceil(info.stat.size / 4096) * 4 : info.node.type === 'dir' ? 4 : 0;
}

async function report(ctx: CommandContext, cmd: string, path: string, err: unknown): Promise<void> {
  await ctx.stderr.write(`${cmd}: ${path}: ${errnoText(err)}\n`);
}

const ls: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1));
  const long = flags.has('l') || flags.has('n') || flags.has('g') || flags.has('o');
  const all = flags.has('a');
  const almost = flags.has('A');
  const numeric = flags.has('n');
  const targets = rest.length === 0 ? ['.'] : rest;
  let status = 0;
  const files: NodeInfo[] = [];
  const dirs: { label: string; path: string }[] = [];
  for (const t of targets) {
    const path = absPath(ctx, t);
    try {
      const info = ctx.fs.info(path, false);
      const followed = info.node.type === 'link' && !long ? ctx.fs.info(path, true) : info;
      const isDir =
        followed.node.type === 'dir' ||
        (info.node.type === 'link' && long && t.endsWith('/') && ctx.fs.info(path, true).node.type === 'dir');
      if (isDir && !flags.has('d')) {
        dirs.push({ label: t, path });
      } else {
        files.push({ ...info, name: t });
      }
    } catch (err) {
      await report(ctx, 'ls', t, err);
      status = 1;
    }
  }
  const order = (list: NodeInfo[]): NodeInfo[] => {
    const sorted = [...list];
    if (flags.has('t')) {
      sorted.sort((a, b) => b.node.mtimeMs - a.node.mtimeMs || (a.name < b.name ? -1 : 1));
    } else if (flags.has('S')) {
      sorted.sort((a, b) => b.stat.size - a.stat.size || (a.name < b.name ? -1 : 1));
    } else {
      sorted.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
    return flags.has('r') ? sorted.reverse() : sorted;
  };
  const render = (list: NodeInfo[], total: boolean): string => {
    if (!long) {
      return list.map((e) => e.name + '\n').join('');
    }
    const owner = (e: NodeInfo): string => (numeric ? String(e.node.uid) : userName(e.node.uid));
    const group = (e: NodeInfo): string => (numeric ? String(e.node.gid) : userName(e.node.gid));
    const links = (e: NodeInfo): string =>
      String(
        e.node.type === 'dir'
          ? 2 + [...(e.node.children?.values() ?? [])].filter((c) => c.type === 'dir').length
          : 1,
      );
    const size = (e: NodeInfo): string => (e.node.type === 'chr' ? '1,   3' : String(e.stat.size));
    const wl = Math.max(1, ...list.map((e) => links(e).length));
    const wu = Math.max(1, ...list.map((e) => owner(e).length));
    const wg = Math.max(1, ...list.map((e) => group(e).length));
    const ws = Math.max(1, ...list.map((e) => size(e).length));
    let text = total ? `total ${list.reduce((sum, e) => sum + blocks(e), 0)}\n` : '';
    for (const e of list) {
      const cols = [modeString(e.node), links(e).padStart(wl)];
      if (!flags.has('g')) {
        cols.push(owner(e).padEnd(wu));
      }
      if (!flags.has('o')) {
        cols.push(group(e).padEnd(wg));
      }
      cols.push(
        size(e).padStart(ws),
        lsDate(e.node.mtimeMs),
        e.name + (e.node.type === 'link' ? ` -> ${e.node.target ?? ''}` : ''),
      );
      text += cols.join(' ') + '\n';
    }
    return text;
  };
  let output = render(order(files), false);
  let first = files.length === 0;
  for (const d of dirs) {
    let entries: NodeInfo[];
    try {
      entries = ctx.fs.entries(d.path);
    } catch (err) {
      await report(ctx, 'ls', d.label, err);
      status = 1;
      continue;
    }
    if (!all) {
      entries = entries.filter((e) => !e.name.startsWith('.'));
    } else if (!almost) {
      const self = ctx.fs.info(d.path, true);
      const parentPath = self.path === '/' ? '/' : self.path.slice(0, self.path.lastIndexOf('/')) || '/';
      entries = [{ ...self, name: '.' }, { ...ctx.fs.info(parentPath, true), name: '..' }, ...entries];
    }
    if (dirs.length + files.length > 1) {
      output += (first ? '' : '\n') + `${d.label}:\n`;
    }
    first = false;
    output += render(order(entries), true);
  }
  await ctx.stdout.write(output);
  return status;
};

const rm: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1));
  const recursive = flags.has('r') || flags.has('R');
  const force = flags.has('f');
  let status = 0;
  if (rest.length === 0 && !force) {
    await ctx.stderr.write('rm: Needs 1 argument\n');
    return 1;
  }
  for (const t of rest) {
    const path = absPath(ctx, t);
    try {
      const found = ctx.fs.tryResolve(path, false);
      if (found === null) {
        if (!force) {
          await report(ctx, 'rm', t, Object.assign(new Error('No such file or directory')));
          status = 1;
        }
        continue;
      }
      if (found.node.type === 'dir') {
        if (!recursive) {
          await ctx.stderr.write(`rm: ${t}: Is a directory\n`);
          status = 1;
          continue;
        }
        ctx.fs.rmdir(path, true);
      } else {
        ctx.fs.unlink(path);
      }
    } catch (err) {
      await report(ctx, 'rm', t, err);
      status = 1;
    }
  }
  return status;
};

const rmdir: CommandFn = async (ctx) => {
  const { rest } = parseFlags(ctx.argv.slice(1));
  let status = 0;
  for (const t of rest) {
    try {
      ctx.fs.rmdir(absPath(ctx, t));
    } catch (err) {
      await report(ctx, 'rmdir', t, err);
      status = 1;
    }
  }
  return status;
};

const mkdir: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1), 'm');
  const mode = flags.has('m') ? Number.parseInt(flags.get('m') ?? '777', 8) : undefined;
  let status = 0;
  for (const t of rest) {
    try {
      ctx.fs.mkdir(absPath(ctx, t), { parents: flags.has('p'), mode });
    } catch (err) {
      await report(ctx, 'mkdir', t, err);
      status = 1;
    }
  }
  return status;
};

const touch: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1), 'dtr');
  let status = 0;
  for (const t of rest) {
    const path = absPath(ctx, t);
    try {
      if (flags.has('c') && ctx.fs.tryResolve(path, true) === null) {
        continue;
      }
      ctx.fs.touch(path);
    } catch (err) {
      await report(ctx, 'touch', t, err);
      status = 1;
    }
  }
  return status;
};

const cp: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1));
  if (rest.length < 2) {
    await ctx.stderr.write('cp: Needs 2 arguments\n');
    return 1;
  }
  const dest = absPath(ctx, rest[rest.length - 1] as string);
  const destIsDir = ctx.fs.tryResolve(dest, true)?.node.type === 'dir';
  let status = 0;
  const copy = (from: string, to: string): void => {
    const info = ctx.fs.info(from, true);
    if (info.node.type === 'dir') {
      if (!(flags.has('r') || flags.has('R') || flags.has('a'))) {
        throw Object.assign(new Error(`Skipped dir '${from}'`), { skipped: true });
      }
      if (ctx.fs.tryResolve(to, true) === null) {
        ctx.fs.mkdir(to);
      }
      for (const e of ctx.fs.entries(from)) {
        copy(e.path, `${to}/${e.name}`);
      }
      return;
    }
    ctx.fs.writeFile(to, ctx.fs.read(from), { mode: info.node.perm });
  };
  for (const src of rest.slice(0, -1)) {
    const from = absPath(ctx, src);
    const to = destIsDir ? `${dest}/${from.slice(from.lastIndexOf('/') + 1)}` : dest;
    try {
      copy(from, to);
    } catch (err) {
      await ctx.stderr.write(
        `cp: ${(err as { skipped?: boolean }).skipped === true ? (err as Error).message : `${src}: ${errnoText(err)}`}\n`,
      );
      status = 1;
    }
  }
  return status;
};

const mv: CommandFn = async (ctx) => {
  const { rest } = parseFlags(ctx.argv.slice(1));
  if (rest.length < 2) {
    await ctx.stderr.write('mv: Needs 2 arguments\n');
    return 1;
  }
  const dest = absPath(ctx, rest[rest.length - 1] as string);
  let status = 0;
  for (const src of rest.slice(0, -1)) {
    try {
      ctx.fs.rename(absPath(ctx, src), dest);
    } catch (err) {
      await report(ctx, 'mv', src, err);
      status = 1;
    }
  }
  return status;
};

const chmod: CommandFn = async (ctx) => {
  const { rest } = parseFlags(ctx.argv.slice(1));
  const [mode, ...paths] = rest;
  if (mode === undefined || !/^[0-7]{1,4}$/.test(mode)) {
    await ctx.stderr.write(`chmod: bad mode '${mode ?? ''}'\n`);
    return 1;
  }
  let status = 0;
  for (const p of paths) {
    try {
      ctx.fs.chmod(absPath(ctx, p), Number.parseInt(mode, 8));
    } catch (err) {
      await ctx.stderr.write(`chmod: ${p}: ${errnoText(err)}\n`);
      status = 1;
    }
  }
  return status;
};

const ln: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1));
  if (!flags.has('s') || rest.length !== 2) {
    await ctx.stderr.write('ln: only `ln -s TARGET LINK` is supported here\n');
    return 1;
  }
  const [target, link] = rest as [string, string];
  try {
    if (flags.has('f') && ctx.fs.tryResolve(absPath(ctx, link), false) !== null) {
      ctx.fs.unlink(absPath(ctx, link));
    }
    ctx.fs.symlink(target, absPath(ctx, link));
    return 0;
  } catch (err) {
    await ctx.stderr.write(`ln: ${link}: ${errnoText(err)}\n`);
    return 1;
  }
};

function hashCommand(algorithm: string, name: string): CommandFn {
  return async (ctx) => {
    const { rest } = parseFlags(ctx.argv.slice(1));
    let status = 0;
    const lines: string[] = [];
    for (const f of rest.length === 0 ? ['-'] : rest) {
      try {
        const data = f === '-' ? await readAll(ctx.stdin) : ctx.fs.read(absPath(ctx, f));
        lines.push(`${createHash(algorithm).update(data).digest('hex')}  ${f}\n`);
      } catch (err) {
        await report(ctx, name, f, err);
        status = 1;
      }
    }
    await ctx.stdout.write(lines.join(''));
    return status;
  };
}

const realpath: CommandFn = async (ctx) => {
  const { rest } = parseFlags(ctx.argv.slice(1));
  let status = 0;
  let out = '';
  for (const t of rest) {
    try {
      out += ctx.fs.realpath(absPath(ctx, t)) + '\n';
    } catch (err) {
      await report(ctx, 'realpath', t, err);
      status = 1;
    }
  }
  await ctx.stdout.write(out);
  return status;
};

const readlink: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1));
  const t = rest[0];
  if (t === undefined) {
    return 1;
  }
  try {
    const path = absPath(ctx, t);
    const value =
      flags.has('f') || flags.has('e') || flags.has('m') ? ctx.fs.realpath(path) : ctx.fs.readlink(path);
    await ctx.stdout.write(value + (flags.has('n') ? '' : '\n'));
    return 0;
  } catch {
    return 1;
  }
};

/** File utilities over the device file system (stat lives in builtins-stat.ts). */
export const FS_COMMANDS: ReadonlyMap<string, CommandFn> = new Map([
  ['ls', ls],
  ['rm', rm],
  ['rmdir', rmdir],
  ['mkdir', mkdir],
  ['touch', touch],
  ['cp', cp],
  ['mv', mv],
  ['chmod', chmod],
  ['ln', ln],
  ['sha256sum', hashCommand('sha256', 'sha256sum')],
  ['sha1sum', hashCommand('sha1', 'sha1sum')],
  ['md5sum', hashCommand('md5', 'md5sum')],
  ['realpath', realpath],
  ['readlink', readlink],
]);
