import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ensureDataDir } from './data-dir.js';
import { readRegularFile, RegularFileError } from '../util/regular-file.js';

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
  try {
    return readRegularFile(file, maxBytes);
  } catch (err) {
    if (!(err instanceof RegularFileError)) {
      throw err;
    }
    switch (err.reason) {
      case 'missing':
        throw new ExchangeError(
          'missing',
          `${name} is not in the exchange folder (${path.dirname(file)}); put the file there first`,
        );
      case 'too_large':
        throw new ExchangeError(
          'too_large',
          `${name} is ${String(err.detail)} bytes; the limit is ${maxBytes}`,
        );
      case 'hard_link':
        throw new ExchangeError(
          'not_regular',
          `${name} in the exchange folder has ${String(err.detail)} hard links (a file from elsewhere linked in); copy the file there instead`,
        );
      default:
        throw new ExchangeError('not_regular', `${name} in the exchange folder is not a regular file`);
    }
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
