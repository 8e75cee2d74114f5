import { posix } from 'node:path';
import { SimFsError, type SimStat } from '../device-api.js';
import type { AdbdStream } from './stream.js';
import type { ServiceContext } from './service-context.js';
import { nowMs } from './command-log.js';

/** Sync request and reply ids (adb's file_sync_protocol.h), as little-endian words. */
function id(name: string): number {
  return Buffer.from(name, 'latin1').readUInt32LE(0);
}
const ID_STAT = id('STAT');
const ID_LSTAT_V2 = id('LST2');
const ID_STAT_V2 = id('STA2');
const ID_LIST = id('LIST');
const ID_LIST_V2 = id('LIS2');
const ID_DENT = id('DENT');
const ID_DENT_V2 = id('DNT2');
const ID_SEND = id('SEND');
const ID_RECV = id('RECV');
const ID_DATA = id('DATA');
const ID_DONE = id('DONE');
const ID_OKAY = id('OKAY');
const ID_FAIL = id('FAIL');
const ID_QUIT = id('QUIT');

/** The largest DATA chunk either side may send. */
export const SYNC_DATA_MAX = 64 * 1024;
const MAX_PATH = 1024;

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;

/** Linux errno numbers (adbd sends these on the wire) and their strerror texts. */
const ERRNO: Record<SimFsError['errno'], { code: number; text: string }> = {
  ENOENT: { code: 2, text: 'No such file or directory' },
  EACCES: { code: 13, text: 'Permission denied' },
  EEXIST: { code: 17, text: 'File exists' },
  ENOTDIR: { code: 20, text: 'Not a directory' },
  EISDIR: { code: 21, text: 'Is a directory' },
  EINVAL: { code: 22, text: 'Invalid argument' },
  EROFS: { code: 30, text: 'Read-only file system' },
  ENOTEMPTY: { code: 39, text: 'Directory not empty' },
};

function errnoOf(err: unknown): { code: number; text: string } {
  if (err instanceof SimFsError) {
    return ERRNO[err.errno];
  }
  return { code: 5, text: err instanceof Error ? err.message : String(err) };
}

function idName(word: number): string {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(word >>> 0, 0);
  return /^[A-Z0-9]{4}$/.test(b.toString('latin1'))
    ? b.toString('latin1')
    : word.toString(16).padStart(8, '0');
}

/** A stable inode number for a path, so tools that compare inodes see distinct files. */
function inodeOf(path: string): number {
  let h = 2166136261;
  for (let i = 0; i < path.length; i++) {
    h = Math.imul(h ^ path.charCodeAt(i), 16777619);
  }
  return h >>> 0;
}

/** The owner adbd would report: the shell user owns its scratch directory, root the rest. */
function ownerOf(path: string): number {
  return path === '/data/local/tmp' || path.startsWith('/data/local/tmp/') ? 2000 : 0;
}

function isDir(stat: SimStat): boolean {
  return (stat.mode & S_IFMT) === 0o040000;
}

/** The 68 bytes after the id of a stat_v2 reply and of a dent_v2 (before its name length). */
function statV2Body(path: string, stat: SimStat | undefined, error: number): Buffer {
  const b = Buffer.alloc(68);
  b.writeUInt32LE(error, 0);
  if (stat) {
    b.writeBigUInt64LE(0xfd05n, 4); // dev
    b.writeBigUInt64LE(BigInt(inodeOf(path)), 12);
    b.writeUInt32LE(stat.mode >>> 0, 20);
    b.writeUInt32LE(isDir(stat) ? 2 : 1, 24); // nlink
    b.writeUInt32LE(ownerOf(path), 28);
    b.writeUInt32LE(ownerOf(path), 32);
    b.writeBigUInt64LE(BigInt(Math.max(0, Math.floor(stat.size))), 36);
    const t = BigInt(Math.floor(stat.mtime));
    b.writeBigInt64LE(t, 44); // atime
    b.writeBigInt64LE(t, 52); // mtime
    b.writeBigInt64LE(t, 60); // ctime
  }
  return b;
}

function word(idWord: number, value: number): Buffer {
  const b = Buffer.allocUnsafe(8);
  b.writeUInt32LE(idWord, 0);
  b.writeUInt32LE(value >>> 0, 4);
  return b;
}

function failMessage(message: string): Buffer {
  const text = Buffer.from(message, 'utf8');
  return Buffer.concat([word(ID_FAIL, text.length), text]);
}

/**
 * The `sync:` service: a loop of requests (STAT/LSTAT/STA2, LIST/LIS2, RECV, SEND, QUIT) over one
 * stream, as adbd's file_sync_service runs it. A failure answers FAIL with adbd's wording
 * ("open failed: No such file or directory") and ends the session, as adbd does.
 */
export async function runSyncService(ctx: ServiceContext, stream: AdbdStream): Promise<void> {
  const inbox = stream.inbox;
  for (;;) {
    const request = await inbox.readExact(8);
    if (!request) {
      break;
    }
    const reqId = request.readUInt32LE(0);
    const length = request.readUInt32LE(4);
    if (reqId === ID_QUIT) {
      break;
    }
    if (length > MAX_PATH) {
      await stream.write(failMessage('path too long'));
      break;
    }
    const rawPath = await inbox.readExact(length);
    if (!rawPath) {
      break;
    }
    const arg = rawPath.toString('utf8');
    const t0 = nowMs();
    let result: { ok: boolean; bytes: number };
    try {
      result = await handleRequest(ctx, stream, reqId, arg);
    } catch (err) {
      ctx.log.warn('sync request failed', { serial: ctx.device.identity.serial, err: String(err) });
      await stream.write(failMessage(errnoOf(err).text));
      result = { ok: false, bytes: 0 };
    }
    ctx.commandLog?.record({
      t0,
      t1: nowMs(),
      dev: ctx.device.identity.serial,
      kind: 'sync',
      cmd: `${idName(reqId)} ${arg}`,
      code: result.ok ? 0 : 1,
      out: result.bytes,
    });
    if (!result.ok || stream.isClosed) {
      break;
    }
  }
  stream.end();
}

async function handleRequest(
  ctx: ServiceContext,
  stream: AdbdStream,
  reqId: number,
  arg: string,
): Promise<{ ok: boolean; bytes: number }> {
  const fs = ctx.device.fs;
  switch (reqId) {
    case ID_STAT: {
      // v1 STAT is an lstat whose failure is all zeros.
      let stat: SimStat = { mode: 0, size: 0, mtime: 0 };
      try {
        stat = fs.lstat(arg);
      } catch {
        // Reported as zeros.
      }
      const b = Buffer.alloc(16);
      b.writeUInt32LE(ID_STAT, 0);
      b.writeUInt32LE(stat.mode >>> 0, 4);
      b.writeUInt32LE(stat.size >>> 0, 8);
      b.writeUInt32LE(Math.floor(stat.mtime) >>> 0, 12);
      await stream.write(b);
      return { ok: true, bytes: b.length };
    }
    case ID_STAT_V2:
    case ID_LSTAT_V2: {
      let stat: SimStat | undefined;
      let error = 0;
      try {
        stat = reqId === ID_STAT_V2 ? fs.stat(arg) : fs.lstat(arg);
      } catch (err) {
        error = errnoOf(err).code;
      }
      const b = Buffer.concat([word(reqId, 0).subarray(0, 4), statV2Body(arg, stat, error)]);
      await stream.write(b);
      return { ok: true, bytes: b.length };
    }
    case ID_LIST:
    case ID_LIST_V2:
      return { ok: true, bytes: await list(ctx, stream, arg, reqId === ID_LIST_V2) };
    case ID_RECV: {
      let data: Uint8Array;
      try {
        data = fs.read(arg);
      } catch (err) {
        await stream.write(failMessage(`open failed: ${errnoOf(err).text}`));
        return { ok: false, bytes: 0 };
      }
      for (let at = 0; at < data.length; at += SYNC_DATA_MAX) {
        const chunk = data.subarray(at, at + SYNC_DATA_MAX);
        await stream.write(Buffer.concat([word(ID_DATA, chunk.length), chunk]));
        if (stream.isClosed) {
          return { ok: false, bytes: at };
        }
      }
      await stream.write(word(ID_DONE, 0));
      return { ok: true, bytes: data.length };
    }
    case ID_SEND:
      return send(ctx, stream, arg);
    default:
      await stream.write(failMessage(`unknown command ${reqId.toString(16).padStart(8, '0')}`));
      return { ok: false, bytes: 0 };
  }
}

async function list(ctx: ServiceContext, stream: AdbdStream, path: string, v2: boolean): Promise<number> {
  const fs = ctx.device.fs;
  const entries: { name: string; stat: SimStat; path: string }[] = [];
  try {
    const self = fs.stat(path);
    if (isDir(self)) {
      // readdir on a real device lists `.` and `..` too; adb's client skips them where it must.
      const parent = posix.dirname(path);
      let parentStat = self;
      try {
        parentStat = fs.stat(parent);
      } catch {
        // The root's parent is itself.
      }
      entries.push({ name: '.', stat: self, path }, { name: '..', stat: parentStat, path: parent });
      for (const entry of fs.list(path)) {
        entries.push({ ...entry, path: posix.join(path, entry.name) });
      }
    }
  } catch {
    // adbd answers an unreadable directory with just DONE.
  }
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    if (v2) {
      const len = Buffer.allocUnsafe(4);
      len.writeUInt32LE(name.length, 0);
      parts.push(word(ID_DENT_V2, 0).subarray(0, 4), statV2Body(entry.path, entry.stat, 0), len, name);
    } else {
      const b = Buffer.alloc(20);
      b.writeUInt32LE(ID_DENT, 0);
      b.writeUInt32LE(entry.stat.mode >>> 0, 4);
      b.writeUInt32LE(entry.stat.size >>> 0, 8);
      b.writeUInt32LE(Math.floor(entry.stat.mtime) >>> 0, 12);
      b.writeUInt32LE(name.length, 16);
      parts.push(b, name);
    }
  }
  const done = Buffer.alloc(v2 ? 76 : 20);
  done.writeUInt32LE(ID_DONE, 0);
  parts.push(done);
  const reply = Buffer.concat(parts);
  await stream.write(reply);
  return reply.length;
}

async function send(
  ctx: ServiceContext,
  stream: AdbdStream,
  spec: string,
): Promise<{ ok: boolean; bytes: number }> {
  const inbox = stream.inbox;
  const comma = spec.lastIndexOf(',');
  if (comma < 0) {
    await stream.write(failMessage('missing , in ID_SEND_V1'));
    return { ok: false, bytes: 0 };
  }
  const path = spec.slice(0, comma);
  const modeText = spec.slice(comma + 1);
  const requested = /^(0x[0-9a-f]+|0[0-7]*|[1-9][0-9]*)$/i.test(modeText)
    ? Number.parseInt(
        modeText,
        modeText.startsWith('0x') || modeText.startsWith('0X') ? 16 : modeText.startsWith('0') ? 8 : 10,
      )
    : NaN;
  if (Number.isNaN(requested)) {
    await stream.write(failMessage('bad mode'));
    return { ok: false, bytes: 0 };
  }
  // Collect the file; adbd reads (and on failure discards) every DATA chunk up to DONE.
  const chunks: Buffer[] = [];
  let size = 0;
  let mtime = 0;
  for (;;) {
    const header = await inbox.readExact(8);
    if (!header) {
      return { ok: false, bytes: size };
    }
    const chunkId = header.readUInt32LE(0);
    const value = header.readUInt32LE(4);
    if (chunkId === ID_DONE) {
      mtime = value;
      break;
    }
    if (chunkId !== ID_DATA) {
      await stream.write(failMessage('invalid data message'));
      return { ok: false, bytes: size };
    }
    if (value > SYNC_DATA_MAX) {
      await stream.write(failMessage('oversize data message'));
      return { ok: false, bytes: size };
    }
    const body = await inbox.readExact(value);
    if (!body) {
      return { ok: false, bytes: size };
    }
    chunks.push(body);
    size += body.length;
  }
  if ((requested & S_IFMT) === S_IFLNK) {
    await stream.write(failMessage('symlink failed: Operation not supported'));
    return { ok: false, bytes: size };
  }
  // adbd copies the user's permission bits to group and other.
  let perms = requested & 0o777;
  perms |= (perms >> 3) & 0o070;
  perms |= (perms >> 3) & 0o007;
  const data = Buffer.concat(chunks, size);
  const fs = ctx.device.fs;
  try {
    try {
      fs.write(path, data, S_IFREG | perms, mtime);
    } catch (err) {
      // Like adbd, create missing parent directories and try once more.
      if (err instanceof SimFsError && err.errno === 'ENOENT' && fs.mkdirs) {
        fs.mkdirs(posix.dirname(path));
        fs.write(path, data, S_IFREG | perms, mtime);
      } else {
        throw err;
      }
    }
  } catch (err) {
    await stream.write(failMessage(`couldn't create file: ${errnoOf(err).text}`));
    return { ok: false, bytes: size };
  }
  await stream.write(word(ID_OKAY, 0));
  return { ok: true, bytes: size };
}
