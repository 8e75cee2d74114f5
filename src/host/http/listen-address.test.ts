import { describe, expect, it } from 'vitest';
import { ListenAddressError, isLoopbackAddress, parseListenAddress } from './listen-address.js';

describe('parseListenAddress', () => {
  it.each([
    [undefined, { host: '127.0.0.1', port: 8765 }],
    ['', { host: '127.0.0.1', port: 8765 }],
    ['127.0.0.1:0', { host: '127.0.0.1', port: 0 }],
    ['0.0.0.0:9000', { host: '0.0.0.0', port: 9000 }],
    ['[::1]:8765', { host: '::1', port: 8765 }],
    ['::', { host: '::', port: 8765 }],
    ['9001', { host: '127.0.0.1', port: 9001 }],
    ['localhost:1234', { host: '127.0.0.1', port: 1234 }],
    ['192.168.1.5', { host: '192.168.1.5', port: 8765 }],
  ])('reads %s', (value, expected) => {
    expect(parseListenAddress(value)).toEqual(expected);
  });

  it.each(['example.com:80', '127.0.0.1:99999', '127.0.0.1:x', '[zz]:1'])('refuses %s', (value) => {
    expect(() => parseListenAddress(value)).toThrow(ListenAddressError);
  });

  it('tells loopback from the rest', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('127.1.2.3')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('0.0.0.0')).toBe(false);
    expect(isLoopbackAddress('::')).toBe(false);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
  });
});
