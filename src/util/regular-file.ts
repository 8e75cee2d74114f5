/**
 * Reads a file only when it is a regular file and not too large, opened so that neither a symlink
 * swapped in nor a FIFO or device can get in: O_NOFOLLOW refuses a link at open time (no lstat race),
 * O_NONBLOCK makes a FIFO's open return at once, and fstat on the open descriptor decides. A file
 * with a second hard link is refused too: a link made inside a folder to a file outside it reads as
 * a regular file, yet is the outside file. The exchange folder, device profiles and the logcat
 * journal read what someone else may have put there through it.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export type RegularFileProblem =
  'missing' | 'link' | 'hard_link' | 'not_owned' | 'not_regular' | 'too_large' | 'unreadable';

export class RegularFileError extends Error {
  constructor(
    readonly reason: RegularFileProblem,
    message: string,
    /** For not_regular: what it is instead ('a FIFO', 'a device', 'a folder', 'a special file'); for too_large: its size. */
    readonly detail: string | number | null = null,
  ) {
    super(message);
  }
}

/** Where the platform has them (not on Windows, which has no symlink-following open or FIFOs to fear). */
const NOFOLLOW = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** What a reader may also require. */
export interface RegularFileOptions {
  /** The file must belong to this process's user (where the platform has uids). */
  ownedByMe?: boolean;
}

/** Reads `file` (see the module comment); throws RegularFileError saying what it is instead. */
export function readRegularFile(file: string, maxBytes: number, options: RegularFileOptions = {}): Buffer {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    if (code === 'ENOENT') {
      throw new RegularFileError('missing', `${file} does not exist`);
    }
    // O_NOFOLLOW on a symlink: ELOOP on Linux, EMLINK on FreeBSD.
    if (code === 'ELOOP' || code === 'EMLINK') {
      throw new RegularFileError('link', `${file} is a symbolic link`);
    }
    throw new RegularFileError('unreadable', `${file} cannot be opened (${code})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      const kind = st.isFIFO()
        ? 'a FIFO'
        : st.isCharacterDevice() || st.isBlockDevice()
          ? 'a device'
          : st.isDirectory()
            ? 'a folder'
            : 'a special file';
      throw new RegularFileError('not_regular', `${file} is not a regular file (${kind})`, kind);
    }
    if (st.nlink > 1) {
      throw new RegularFileError(
        'hard_link',
        `${file} has ${st.nlink} hard links (it may be a file from elsewhere linked in)`,
        st.nlink,
      );
    }
    const uid = process.getuid?.();
    if (options.ownedByMe === true && uid !== undefined && st.uid !== uid) {
      throw new RegularFileError('not_owned', `${file} belongs to user ${st.uid}, not to this user (${uid})`);
    }
    if (st.size > maxBytes) {
      throw new RegularFileError(
        'too_large',
        `${file} is ${st.size} bytes; the limit is ${maxBytes}`,
        st.size,
      );
    }
    const data = Buffer.alloc(st.size);
    let at = 0;
    while (at < st.size) {
      const n = readSync(fd, data, at, st.size - at, at);
      if (n === 0) {
        break;
      }
      at += n;
    }
    return data.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}
