/**
 * Reads a file only when it is a regular file and not too large, opened so that neither a symlink
 * swapped in nor a FIFO or device can get in: O_NOFOLLOW refuses a link at open time (no lstat race),
 * O_NONBLOCK makes a FIFO's open return at once, and fstat on the open descriptor decides.
 * The exchange folder and device profiles read what someone else put there through it.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export type RegularFileProblem = 'missing' | 'link' | 'not_regular' | 'too_large' | 'unreadable';

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

export function readRegularFile(file: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
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
