/**
 * File system nodes, their stat, and the errno and user-name texts the shell prints.
 *
 * Evidence: system/core/libcutils/include/private/android_filesystem_config.h (AID_ROOT 0, AID_SYSTEM
 * 1000, AID_SHELL 2000, AID_SDCARD_RW 1015, AID_EVERYBODY 9997); bionic's strerror texts for the
 * errnos.
 */
import { SimFsError, type SimStat } from '../device-api.js';

/** Unix file type bits. */
export const S_IFDIR = 0o040000;
export const S_IFREG = 0o100000;
export const S_IFLNK = 0o120000;
export const S_IFCHR = 0o020000;

/** Well-known Android ids the shell user meets. */
export const UID = { root: 0, system: 1000, shell: 2000, everybody: 9997, sdcardRw: 1015 } as const;

/** The groups of adbd's shell user (`id` on a real device). */
export const SHELL_GROUPS: readonly number[] = [
  2000, 1004, 1007, 1011, 1015, 1028, 1078, 1079, 3001, 3002, 3003, 3006, 3009, 3011, 9997,
];

const STRERROR: Record<SimFsError['errno'], string> = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  EEXIST: 'File exists',
  ENOTEMPTY: 'Directory not empty',
  EINVAL: 'Invalid argument',
  EROFS: 'Read-only file system',
};

/** A SimFsError whose message is the C library's text for the errno. */
export function fsError(errno: SimFsError['errno']): SimFsError {
  return new SimFsError(errno, STRERROR[errno]);
}

/** The errno text of an error thrown by the file system, or the error's message. */
export function errnoText(err: unknown): string {
  if (err instanceof SimFsError) {
    return STRERROR[err.errno];
  }
  return err instanceof Error ? err.message : String(err);
}

/** Android's names for the ids files on a device carry. */
export function userName(uid: number): string {
  const known: Record<number, string> = {
    0: 'root',
    1000: 'system',
    1007: 'log',
    1015: 'sdcard_rw',
    1023: 'media_rw',
    1028: 'sdcard_r',
    2000: 'shell',
    9997: 'everybody',
  };
  const name = known[uid];
  if (name !== undefined) {
    return name;
  }
  if (uid >= 10000 && uid < 20000) {
    return `u0_a${uid - 10000}`;
  }
  return String(uid);
}

/** One file system node. Data arrays may be shared between devices: a write replaces, never mutates. */
export interface FsNode {
  type: 'dir' | 'file' | 'link' | 'chr';
  /** Permission bits including setuid/setgid/sticky (no type bits). */
  perm: number;
  uid: number;
  gid: number;
  mtimeMs: number;
  ino: number;
  children?: Map<string, FsNode>;
  data?: Uint8Array;
  target?: string;
}

/** What `ls -l` and `stat` need about a node. */
export interface NodeInfo {
  name: string;
  path: string;
  node: FsNode;
  stat: SimStat;
}

function typeBits(node: FsNode): number {
  switch (node.type) {
    case 'dir':
      return S_IFDIR;
    case 'file':
      return S_IFREG;
    case 'link':
      return S_IFLNK;
    case 'chr':
      return S_IFCHR;
  }
}

/** The stat the sync service reports for a node. */
export function nodeStat(node: FsNode): SimStat {
  const size =
    node.type === 'file'
      ? (node.data?.length ?? 0)
      : node.type === 'link'
        ? (node.target ?? '').length
        : node.type === 'dir'
          ? 4096
          : 0;
  return { mode: typeBits(node) | node.perm, size, mtime: Math.floor(node.mtimeMs / 1000) };
}
