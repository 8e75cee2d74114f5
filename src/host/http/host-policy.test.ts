import { describe, expect, it } from 'vitest';
import { HostPolicy } from './host-policy.js';

const none = { allowedHosts: [], allowedOrigins: [], publicUrl: null };

describe('HostPolicy (DNS-rebinding protection)', () => {
  it('answers to the loopback names on its own port only', () => {
    const p = new HostPolicy({ host: '127.0.0.1', port: 8765 }, false, () => none);
    for (const ok of ['127.0.0.1:8765', 'localhost:8765', 'LOCALHOST:8765', '[::1]:8765']) {
      expect(p.hostAllowed(ok), ok).toBe(true);
    }
    for (const bad of ['evil.example', 'evil.example:8765', '127.0.0.1:8766', '127.0.0.1', undefined, '']) {
      expect(p.hostAllowed(bad), String(bad)).toBe(false);
    }
  });

  it('adds configured names (any port when none is given) and the public URL', () => {
    const p = new HostPolicy({ host: '127.0.0.1', port: 8765 }, false, () => ({
      allowedHosts: ['devbox.lan', 'other.lan:9000'],
      allowedOrigins: ['https://app.example'],
      publicUrl: 'https://droidbus.tunnel.example',
    }));
    expect(p.hostAllowed('devbox.lan:8765')).toBe(true);
    expect(p.hostAllowed('devbox.lan')).toBe(true);
    expect(p.hostAllowed('other.lan:9000')).toBe(true);
    expect(p.hostAllowed('other.lan:9001')).toBe(false);
    expect(p.hostAllowed('droidbus.tunnel.example')).toBe(true);
    expect(p.originAllowed('https://app.example')).toBe(true);
    expect(p.originAllowed('https://droidbus.tunnel.example')).toBe(true);
  });

  it('lets no Origin through but its own, configured ones, or none at all', () => {
    const p = new HostPolicy({ host: '127.0.0.1', port: 8765 }, true, () => none);
    expect(p.originAllowed(undefined)).toBe(true);
    expect(p.originAllowed('https://localhost:8765')).toBe(true);
    expect(p.originAllowed('http://localhost:8765')).toBe(false);
    expect(p.originAllowed('https://evil.example')).toBe(false);
    expect(p.originAllowed('null')).toBe(false);
    expect(p.originAllowed('file://')).toBe(false);
  });

  it('answers to the loopback names and this machine on every interface', () => {
    const p = new HostPolicy({ host: '0.0.0.0', port: 8765 }, false, () => none);
    expect(p.hostAllowed('127.0.0.1:8765')).toBe(true);
    expect(p.hostAllowed('0.0.0.0:8765')).toBe(false);
    expect(p.hostAllowed('evil.example:8765')).toBe(false);
  });
});
