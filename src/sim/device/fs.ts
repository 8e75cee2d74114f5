/**
 * Evidence: system/core/rootdir/init.rc (the modes of /data and /data/local/tmp), the /sdcard →
 * /storage/self/primary link of every phone since 4.2; fs-layout.ts lists the tree. Read-only mounts:
 * Linux fs/namei.c inode_permission → sb_permission returns EROFS for a read-only mount before the
 * permission bits are looked at (root included), and Android mounts its system image read-only
 * (system-as-root since Android 10; dm-verity) until `adb remount`.
 */
import { SimFsError, type SimFs, type SimStat } from '../device-api.js';
import { fsError, nodeStat, SHELL_GROUPS, UID, type FsNode, type NodeInfo } from './fs-node.js';

export * from './fs-node.js';

const EMPTY = new Uint8Array(0);
const SHELL_GROUP_SET = new Set(SHELL_GROUPS);

interface Resolved {
  node: FsNode;
  path: string;
}

/** The path's components, without empty ones. */
function components(path: string): string[] {
  return path.split('/').filter((c) => c !== '' && c !== '.');
}

/**
 * A device's in-memory file system, seen as adbd's shell user (uid 2000) sees it: shared storage
 * and /data/local/tmp are writable, most of /data is not listable, /sdcard is a symlink.
 */
/** The partitions a phone mounts read-only (dm-verity), beside the system-as-root `/`. */
const READ_ONLY_MOUNTS = ['/system', '/vendor', '/product', '/system_ext', '/odm', '/apex'];

export class MemFs implements SimFs {
  private nextIno = 2;
  readonly root: FsNode;
  /** adbd runs as root (`adb root` on a debuggable build): permission bits no longer apply. */
  superuser = false;
  /** Clock for new mtimes (ms); replaceable in tests. */
  now: () => number = Date.now;

  constructor() {
    this.root = {
      type: 'dir',
      perm: 0o755,
      uid: 0,
      gid: 0,
      mtimeMs: Date.now(),
      ino: 1,
      children: new Map(),
    };
  }

  // ---- SimFs -------------------------------------------------------------------------------

  stat(path: string): SimStat {
    return nodeStat(this.resolve(path, true).node);
  }

  lstat(path: string): SimStat {
    return nodeStat(this.resolve(path, false).node);
  }

  list(path: string): { name: string; stat: SimStat }[] {
    const dir = this.resolve(path, true).node;
    if (dir.type !== 'dir') {
      throw fsError('ENOTDIR');
    }
    if (!this.canRead(dir)) {
      throw fsError('EACCES');
    }
    return [...(dir.children ?? new Map<string, FsNode>()).entries()].map(([name, node]) => ({
      name,
      stat: nodeStat(node),
    }));
  }

  read(path: string): Uint8Array {
    const node = this.resolve(path, true).node;
    if (node.type === 'dir') {
      throw fsError('EISDIR');
    }
    if (!this.canRead(node)) {
      throw fsError('EACCES');
    }
    return node.type === 'file' ? (node.data ?? EMPTY) : EMPTY;
  }

  write(path: string, data: Uint8Array, mode: number, mtime: number): void {
    this.writeFile(path, data, { mode, mtimeMs: mtime * 1000 });
  }

  mkdirs(path: string): void {
    this.mkdir(path, { parents: true });
  }

  // ---- the shell's extras --------------------------------------------------------------------

  /** Creates or replaces a regular file; the parent must exist and be writable. */
  writeFile(
    path: string,
    data: Uint8Array,
    opts: { mode?: number; mtimeMs?: number; append?: boolean } = {},
  ): void {
    const existing = this.tryResolve(path, true);
    if (existing !== null) {
      const node = existing.node;
      if (node.type === 'dir') {
        throw fsError('EISDIR');
      }
      if (node.type === 'chr') {
        return; // /dev/null and friends swallow writes
      }
      this.refuseReadOnly(existing.path, false);
      if (!this.canWrite(node)) {
        throw fsError('EACCES');
      }
      node.data = opts.append === true ? concat(node.data ?? EMPTY, data) : data;
      node.mtimeMs = opts.mtimeMs ?? this.now();
      if (opts.mode !== undefined && !existing.path.startsWith('/storage/')) {
        node.perm = opts.mode & 0o7777;
      }
      return;
    }
    const { parent, name, parentPath } = this.parentOf(path);
    this.refuseReadOnly(`${parentPath}/${name}`, true);
    if (!this.canWrite(parent)) {
      throw fsError('EACCES');
    }
    const shared = (parentPath + '/').startsWith('/storage/');
    const node: FsNode = {
      type: 'file',
      perm: shared ? 0o660 : (opts.mode ?? 0o666) & 0o7777,
      uid: shared ? UID.root : UID.shell,
      gid: (parent.perm & 0o2000) !== 0 ? parent.gid : UID.shell,
      mtimeMs: opts.mtimeMs ?? this.now(),
      ino: this.nextIno++,
      data,
    };
    parent.children?.set(name, node);
    parent.mtimeMs = this.now();
  }

  /** Creates a directory (with `parents`, every missing one, and no error if it exists). */
  mkdir(path: string, opts: { parents?: boolean; mode?: number } = {}): void {
    if (opts.parents === true) {
      let at = '';
      for (const c of components(this.normalize(path))) {
        at += '/' + c;
        const found = this.tryResolve(at, true);
        if (found === null) {
          this.mkdir(at, { mode: opts.mode });
        } else if (found.node.type !== 'dir') {
          throw fsError('ENOTDIR');
        }
      }
      return;
    }
    if (this.tryResolve(path, false) !== null) {
      throw fsError('EEXIST');
    }
    const { parent, parentPath } = this.parentOf(path);
    this.refuseReadOnly(path, true);
    if (!this.canWrite(parent)) {
      throw fsError('EACCES');
    }
    const shared = (parentPath + '/').startsWith('/storage/');
    this.put(path, {
      type: 'dir',
      perm: shared ? 0o2770 : (opts.mode ?? 0o777) & 0o7777 & ~0o022,
      uid: shared ? UID.root : UID.shell,
      gid: shared ? UID.everybody : UID.shell,
      mtimeMs: this.now(),
      ino: 0,
      children: new Map(),
    });
  }

  /** Removes a file or symlink (not a directory). */
  unlink(path: string): void {
    const { parent, name } = this.parentOf(path);
    const node = parent.children?.get(name);
    if (node === undefined) {
      throw fsError('ENOENT');
    }
    if (node.type === 'dir') {
      throw fsError('EISDIR');
    }
    this.refuseReadOnly(path, true);
    if (!this.canWrite(parent)) {
      throw fsError('EACCES');
    }
    parent.children?.delete(name);
    parent.mtimeMs = this.now();
  }

  /** Removes an empty directory, or (recursive) a whole tree. */
  rmdir(path: string, recursive = false): void {
    const { parent, name } = this.parentOf(path);
    const node = parent.children?.get(name);
    if (node === undefined) {
      throw fsError('ENOENT');
    }
    if (node.type !== 'dir') {
      throw fsError('ENOTDIR');
    }
    if (!recursive && (node.children?.size ?? 0) > 0) {
      throw fsError('ENOTEMPTY');
    }
    this.refuseReadOnly(path, true);
    if (!this.canWrite(parent)) {
      throw fsError('EACCES');
    }
    parent.children?.delete(name);
    parent.mtimeMs = this.now();
  }

  /** Creates a symlink at `path` pointing to `target`. */
  symlink(target: string, path: string): void {
    if (this.tryResolve(path, false) !== null) {
      throw fsError('EEXIST');
    }
    const { parent } = this.parentOf(path);
    this.refuseReadOnly(path, true);
    if (!this.canWrite(parent)) {
      throw fsError('EACCES');
    }
    this.put(path, {
      type: 'link',
      perm: 0o777,
      uid: UID.shell,
      gid: UID.shell,
      mtimeMs: this.now(),
      ino: 0,
      target,
    });
  }

  /** A symlink's target. */
  readlink(path: string): string {
    const node = this.resolve(path, false).node;
    if (node.type !== 'link') {
      throw fsError('EINVAL');
    }
    return node.target ?? '';
  }

  /** The canonical absolute path, every symlink resolved. */
  realpath(path: string): string {
    return this.resolve(path, true).path;
  }

  /** Node and canonical path, or null when it does not exist. */
  tryResolve(path: string, follow: boolean): Resolved | null {
    try {
      return this.resolve(path, follow);
    } catch (err) {
      if (err instanceof SimFsError && (err.errno === 'ENOENT' || err.errno === 'ENOTDIR')) {
        return null;
      }
      throw err;
    }
  }

  /** Everything `ls -l` or `stat` shows about a path (not following a final symlink unless asked). */
  info(path: string, follow = false): NodeInfo {
    const r = this.resolve(path, follow);
    const name = components(path).pop() ?? '/';
    return { name, path: r.path, node: r.node, stat: nodeStat(r.node) };
  }

  /** Entries of a directory with their nodes, sorted by name (toybox `ls` order). */
  entries(path: string): NodeInfo[] {
    const r = this.resolve(path, true);
    if (r.node.type !== 'dir') {
      throw fsError('ENOTDIR');
    }
    if (!this.canRead(r.node)) {
      throw fsError('EACCES');
    }
    const base = r.path === '/' ? '' : r.path;
    return [...(r.node.children ?? new Map<string, FsNode>()).entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, node]) => ({ name, path: `${base}/${name}`, node, stat: nodeStat(node) }));
  }

  /** Sets a path's modification time, creating an empty file when it does not exist (`touch`). */
  touch(path: string, mtimeMs = this.now()): void {
    const r = this.tryResolve(path, true);
    if (r === null) {
      this.writeFile(path, EMPTY, { mtimeMs });
      return;
    }
    this.refuseReadOnly(r.path, false);
    if (!this.canWrite(r.node) && r.node.uid !== UID.shell) {
      throw fsError('EACCES');
    }
    r.node.mtimeMs = mtimeMs;
  }

  /** Changes permission bits. */
  chmod(path: string, perm: number): void {
    const r = this.resolve(path, true);
    this.refuseReadOnly(r.path, false);
    if (r.node.uid !== UID.shell && !this.superuser) {
      throw new SimFsError('EACCES', 'Operation not permitted');
    }
    r.node.perm = perm & 0o7777;
  }

  /** Moves a node to a new path (same file system). */
  rename(from: string, to: string): void {
    const src = this.parentOf(from);
    const node = src.parent.children?.get(src.name);
    if (node === undefined) {
      throw fsError('ENOENT');
    }
    let dest = this.tryResolve(to, true);
    let destPath = to;
    if (dest !== null && dest.node.type === 'dir') {
      destPath = dest.path + '/' + src.name;
      dest = this.tryResolve(destPath, false);
    }
    const dst = this.parentOf(destPath);
    this.refuseReadOnly(from, true);
    this.refuseReadOnly(destPath, true);
    if (!this.canWrite(src.parent) || !this.canWrite(dst.parent)) {
      throw fsError('EACCES');
    }
    if (dest !== null && dest.node.type === 'dir') {
      throw fsError('EISDIR');
    }
    src.parent.children?.delete(src.name);
    dst.parent.children?.set(dst.name, node);
  }

  /** Adds a node the system owns (device setup): no permission checks, parents created as root dirs. */
  put(path: string, node: FsNode): FsNode {
    const parts = components(path);
    const name = parts.pop();
    if (name === undefined) {
      throw fsError('EEXIST');
    }
    let dir = this.root;
    for (const c of parts) {
      let next = dir.children?.get(c);
      if (next === undefined) {
        next = {
          type: 'dir',
          perm: 0o755,
          uid: 0,
          gid: 0,
          mtimeMs: this.now(),
          ino: this.nextIno++,
          children: new Map(),
        };
        dir.children?.set(c, next);
      }
      if (next.type === 'link') {
        next = this.resolve(next.target ?? '/', true).node;
      }
      if (next.type !== 'dir') {
        throw fsError('ENOTDIR');
      }
      dir = next;
    }
    node.ino = node.ino === 0 ? this.nextIno++ : node.ino;
    dir.children?.set(name, node);
    return node;
  }

  /** Normalizes `.`, `..` and repeated slashes without resolving symlinks. */
  normalize(path: string): string {
    const out: string[] = [];
    for (const c of path.split('/')) {
      if (c === '' || c === '.') {
        continue;
      }
      if (c === '..') {
        out.pop();
      } else {
        out.push(c);
      }
    }
    return '/' + out.join('/');
  }

  canRead(node: FsNode): boolean {
    return this.allowed(node, 4);
  }

  canWrite(node: FsNode): boolean {
    return this.allowed(node, 2);
  }

  /**
   * A change to what a phone mounts read-only fails EROFS, root or not (the kernel checks the mount
   * before the permission bits): the system image — `/` itself since system-as-root, and the
   * partitions below it — as `adb root; adb shell touch /system/x` answers "Read-only file system"
   * until `adb remount`. `entry`: the change adds or removes a name in its folder (so `/x` is `/`'s).
   */
  private refuseReadOnly(path: string, entry: boolean): void {
    const p = this.normalize(path);
    const parent = p.slice(0, p.lastIndexOf('/')) || '/';
    if (
      p === '/' ||
      (entry && parent === '/') ||
      READ_ONLY_MOUNTS.some((m) => p === m || p.startsWith(`${m}/`))
    ) {
      throw fsError('EROFS');
    }
  }

  private allowed(node: FsNode, bit: number): boolean {
    if (node.type === 'link' || this.superuser) {
      return true;
    }
    if (node.uid === UID.shell) {
      return (node.perm & (bit << 6)) !== 0;
    }
    if (SHELL_GROUP_SET.has(node.gid)) {
      return (node.perm & (bit << 3)) !== 0;
    }
    return (node.perm & bit) !== 0;
  }

  private parentOf(path: string): { parent: FsNode; name: string; parentPath: string } {
    const norm = this.normalize(path);
    const idx = norm.lastIndexOf('/');
    const name = norm.slice(idx + 1);
    if (name === '') {
      throw fsError('EEXIST');
    }
    const parentRes = this.resolve(norm.slice(0, idx) || '/', true);
    if (parentRes.node.type !== 'dir') {
      throw fsError('ENOTDIR');
    }
    return { parent: parentRes.node, name, parentPath: parentRes.path === '/' ? '' : parentRes.path };
  }

  private resolve(path: string, followFinal: boolean, depth = 0): Resolved {
    if (depth > 40) {
      throw fsError('EINVAL');
    }
    if (!path.startsWith('/')) {
      path = '/' + path;
    }
    const stack: { node: FsNode; name: string }[] = [];
    let node = this.root;
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) {
      const c = parts[i] as string;
      if (c === '' || c === '.') {
        continue;
      }
      if (c === '..') {
        stack.pop();
        node = stack.at(-1)?.node ?? this.root;
        continue;
      }
      if (node.type !== 'dir') {
        throw fsError('ENOTDIR');
      }
      if (!this.allowed(node, 1)) {
        throw fsError('EACCES');
      }
      const child = node.children?.get(c);
      if (child === undefined) {
        throw fsError('ENOENT');
      }
      const isLast = parts.slice(i + 1).every((p) => p === '' || p === '.');
      if (child.type === 'link' && (!isLast || followFinal)) {
        const here = '/' + stack.map((s) => s.name).join('/');
        const target = child.target ?? '';
        const base = target.startsWith('/') ? target : `${here === '/' ? '' : here}/${target}`;
        const rest = parts.slice(i + 1).join('/');
        return this.resolve(rest === '' ? base : `${base}/${rest}`, followFinal, depth + 1);
      }
      stack.push({ node: child, name: c });
      node = child;
    }
    return { node, path: '/' + stack.map((s) => s.name).join('/') };
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
