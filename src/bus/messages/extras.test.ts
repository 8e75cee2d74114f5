import { describe, expect, it } from 'vitest';
import { exchangeNameSchema } from './extras.js';

describe('exchange file names', () => {
  it('takes plain names', () => {
    for (const name of [
      'a.txt',
      'report (1).pdf',
      'blob-back.bin',
      'x',
      'console.log',
      'com10.txt',
      'nulls',
    ]) {
      expect(exchangeNameSchema.safeParse(name).success, name).toBe(true);
    }
  });

  it('refuses what a command would take as an option, what Windows reserves, and hidden or trailing forms', () => {
    for (const name of [
      '-n',
      '--user all',
      '-',
      'CON',
      'con',
      'nul.txt',
      'COM1',
      'lpt9.log',
      'PRN',
      '.hidden',
      'a.',
      'a ',
      '../x',
      'a/b',
    ]) {
      expect(exchangeNameSchema.safeParse(name).success, name).toBe(false);
    }
  });
});
