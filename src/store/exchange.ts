import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
  constants as fsConstants,
} from 'node:fs';
import path from 'node:path';
import { ensureDataDir } from './data-dir.js';

/**
 * `<data dir>/exchange/`: the only host folder the device file tools read from and write to. Tools
 * name files in it by a bare file name (no separators), never by a host path.
 */

/** Thrown for a bad name, a missing or oversized file, or an existing file without `overwrite`. */
export class ExchangeError extends Error {
  constructor(
    readonly kind: 'invalid' | 'missing' | 'exists' | 'too_large' | 'not_regular',
    message: string,
  ) {
    super(message);
    this.name = 'ExchangeError';
  }
}

/** A file name in the exchange folder: letters, digits, space and `._-+()@,=`; no leading dot. */
export const EXCHANGE_NAME_RE = /^[A-Za-z0-9_+()@,=-][A-Za-z0-9 ._+()@,=-]{0,199}$/;

/** The exchange folder (created 0700). */
export function exchangeDir(): string {
  const dir = path.join(ensureDataDir(), 'exchange');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Checks an exchange file name; throws ExchangeError('invalid') with the rule. */
export function checkExchangeName(name: string): string {
  if (!EXCHANGE_NAME_RE.test(name) || name.endsWith('.') || name.endsWith(' ') || name.endsWith('.tmp')) {
    throw new ExchangeError(
      'invalid',
      `'${name.slice(0, 100)}' is not an exchange file name: use 1–200 letters, digits, spaces and . _ - + ( ) @ , =, not starting with a dot or ending with '.', ' ' or '.tmp', and no folders`,
    );
  }
  return name;
}

/** The host path of an exchange file (the name is checked). */
export function exchangePath(name: string): string {
  return path.join(exchangeDir(), checkExchangeName(name));
}

/** Reads an exchange file: a regular file (not a symlink), at most `maxBytes`. */
export function readExchangeFile(name: string, maxBytes: number): Buffer {
  const file = exchangePath(name);
  let st;
  try {
    st = lstatSync(file);
  } catch {
    throw new ExchangeError(
      'missing',
      `${name} is not in the exchange folder (${path.dirname(file)}); put the file there first`,
    );
  }
  if (!st.isFile()) {
    throw new ExchangeError('not_regular', `${name} in the exchange folder is not a regular file`);
  }
  if (st.size > maxBytes) {
    throw new ExchangeError('too_large', `${name} is ${st.size} bytes; the limit is ${maxBytes}`);
  }
  // O_NOFOLLOW: a symlink swapped in after the lstat is refused by the open itself.
  const fd = openSync(file, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0));
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) {
      throw new ExchangeError('too_large', `${name} is ${size} bytes; the limit is ${maxBytes}`);
    }
    const data = Buffer.alloc(size);
    let at = 0;
    while (at < size) {
      const n = readSync(fd, data, at, size - at, at);
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

/**
 * Writes an exchange file atomically (temp file, fsync, then a rename). Without `overwrite` an
 * existing name is refused, atomically: the temp file is hard-linked to the name, which fails when
 * the name exists. Returns the host path.
 */
export function writeExchangeFile(name: string, data: Uint8Array, overwrite: boolean): string {
  const file = exchangePath(name);
  const tmp = path.join(path.dirname(file), `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    let at = 0;
    while (at < data.length) {
      at += writeSync(fd, data, at, data.length - at);
    }
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    if (overwrite) {
      renameSync(tmp, file);
    } else {
      try {
        linkSync(tmp, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
          throw new ExchangeError(
            'exists',
            `${name} already exists in the exchange folder; pass overwrite: true to replace it, or choose another exchange_name`,
          );
        }
        throw err;
      }
      rmSync(tmp, { force: true });
    }
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return file;
}
