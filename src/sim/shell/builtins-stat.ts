/**
 * Evidence: toybox/toys/other/stat.c (the `-c` format letters).
 */
import { errnoText, userName, type NodeInfo } from '../device/fs.js';
import type { CommandFn } from './command.js';
import { absPath } from './command.js';
import { blocks, modeString, pad2 } from './builtins-fs.js';
import { parseFlags } from './builtins-text.js';

function fileTypeText(info: NodeInfo): string {
  switch (info.node.type) {
    case 'dir':
      return 'directory';
    case 'link':
      return 'symbolic link';
    case 'chr':
      return 'character special file';
    case 'file':
      return info.stat.size === 0 ? 'regular empty file' : 'regular file';
  }
}

function statTime(ms: number): string {
  const d = new Date(ms);
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  const abs = Math.abs(off);
  const frac = String(ms % 1000).padStart(3, '0') + '000000';
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.${frac} ${sign}${pad2(Math.floor(abs / 60))}${pad2(abs % 60)}`;
}

function statField(info: NodeInfo, c: string, displayName: string): string {
  const n = info.node;
  const s = info.stat;
  switch (c) {
    case 'a':
      return (n.perm & 0o7777).toString(8);
    case 'A':
      return modeString(n);
    case 'b':
      return String(blocks(info) * 2);
    case 'B':
      return '512';
    case 'd':
      return '61';
    case 'D':
      return '3d';
    case 'f':
      return s.mode.toString(16);
    case 'F':
      return fileTypeText(info);
    case 'g':
      return String(n.gid);
    case 'G':
      return userName(n.gid);
    case 'h':
      return n.type === 'dir'
        ? String(2 + [...(n.children?.values() ?? [])].filter((x) => x.type === 'dir').length)
        : '1';
    case 'i':
      return String(n.ino);
    case 'n':
      return displayName;
    case 'N':
      return n.type === 'link' ? `'${displayName}' -> '${n.target ?? ''}'` : `'${displayName}'`;
    case 'o':
      return '4096';
    case 's':
      return String(s.size);
    case 'u':
      return String(n.uid);
    case 'U':
      return userName(n.uid);
    case 'x':
    case 'y':
    case 'z':
      return statTime(n.mtimeMs);
    case 'X':
    case 'Y':
    case 'Z':
      return String(Math.floor(n.mtimeMs / 1000));
    case '%':
      return '%';
    default:
      return '?';
  }
}

const DEFAULT_STAT =
  '  File: %N\n  Size: %s\t Blocks: %b\t IO Blocks: %B\t%F\nDevice: %Dh/%dd\t Inode: %i\t Links: %h\nAccess: (%a/%A)\tUid: (%5u/%8U)\tGid: (%5g/%8G)\nAccess: %x\nModify: %y\nChange: %z\n';

/** toybox `stat [-L] [-c FORMAT] FILE…`. */
export const stat: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1), 'cf');
  const format = flags.has('c') ? (flags.get('c') ?? '') + '\n' : DEFAULT_STAT;
  let status = 0;
  let out = '';
  for (const t of rest) {
    try {
      const info = ctx.fs.info(absPath(ctx, t), flags.has('L'));
      out += format.replace(/%(\d*)([a-zA-Z%])/g, (_, width: string, c: string) => {
        const v = statField(info, c, t);
        return width === '' ? v : v.padStart(Number(width));
      });
    } catch (err) {
      await ctx.stderr.write(`stat: '${t}': ${errnoText(err)}\n`);
      status = 1;
    }
  }
  await ctx.stdout.write(out);
  return status;
};
