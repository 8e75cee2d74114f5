import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExchangeError, exchangeDir, readExchangeFile, writeExchangeFile } from './exchange.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'droidbus-exchange-'));
  process.env['DROIDBUS_HOME'] = home;
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  delete process.env['DROIDBUS_HOME'];
});

function kindOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return err instanceof ExchangeError ? err.kind : `other: ${String(err)}`;
  }
  return 'none';
}

describe('the exchange folder', () => {
  it('writes and reads files by bare name, and never replaces one without overwrite', () => {
    const file = writeExchangeFile('report.txt', Buffer.from('one'), false);
    expect(file).toBe(path.join(home, 'exchange', 'report.txt'));
    expect(readExchangeFile('report.txt', 100).toString()).toBe('one');
    expect(kindOf(() => writeExchangeFile('report.txt', Buffer.from('two'), false))).toBe('exists');
    expect(readExchangeFile('report.txt', 100).toString()).toBe('one');
    writeExchangeFile('report.txt', Buffer.from('two'), true);
    expect(readExchangeFile('report.txt', 100).toString()).toBe('two');
    expect(readdirSync(exchangeDir())).toEqual(['report.txt']);
  });

  it('refuses names with folders, dots or hidden prefixes', () => {
    for (const name of ['../settings.json', 'a/b', 'a\\b', '.hidden', '..', '.', 'x.tmp', 'ok\n']) {
      expect(
        kindOf(() => writeExchangeFile(name, Buffer.from('x'), true)),
        name,
      ).toBe('invalid');
    }
  });

  it('refuses to read a symlink, a folder, a missing file or one over the limit', () => {
    writeFileSync(path.join(home, 'secret'), 'x');
    symlinkSync(path.join(home, 'secret'), path.join(exchangeDir(), 'link.txt'));
    expect(kindOf(() => readExchangeFile('link.txt', 100))).toBe('not_regular');
    expect(kindOf(() => readExchangeFile('missing.txt', 100))).toBe('missing');
    writeExchangeFile('big.bin', Buffer.alloc(101), false);
    expect(kindOf(() => readExchangeFile('big.bin', 100))).toBe('too_large');
  });
});
