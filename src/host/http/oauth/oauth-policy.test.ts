import { describe, expect, it } from 'vitest';
import { cleanDisplayName, redirectUriMatches, redirectUriProblem } from './oauth-policy.js';

describe('the redirect URI allowlist', () => {
  it.each([
    'https://claude.ai/api/mcp/auth_callback',
    'https://app.example:8443/cb?x=1',
    'http://localhost:33418/callback',
    'http://127.0.0.1:9/callback',
    'http://[::1]:5000/x',
  ])('allows %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeNull();
  });

  it.each([
    'http://evil.example/cb',
    'http://192.168.1.10:8080/cb',
    'http://localhost.evil.example/cb',
    'myapp://callback',
    'javascript:alert(1)',
    'https://app.example/cb#fragment',
    'https://user:pw@app.example/cb',
    '/relative',
  ])('refuses %s', (uri) => {
    expect(redirectUriProblem(uri)).not.toBeNull();
  });

  it('matches loopback redirect URIs on any port, and everything else exactly', () => {
    expect(redirectUriMatches('http://127.0.0.1:5555/cb', 'http://127.0.0.1:9/cb')).toBe(true);
    expect(redirectUriMatches('http://127.0.0.1:5555/other', 'http://127.0.0.1:9/cb')).toBe(false);
    expect(redirectUriMatches('http://localhost:5555/cb', 'http://127.0.0.1:9/cb')).toBe(false);
    expect(redirectUriMatches('https://app.example:444/cb', 'https://app.example/cb')).toBe(false);
    expect(redirectUriMatches('https://app.example/cb', 'https://app.example/cb')).toBe(true);
  });

  it('cleans a client name of control and direction characters and bounds it', () => {
    expect(cleanDisplayName('Good\u202eevil\u0007 App', 'x')).toBe('Goodevil App');
    expect(cleanDisplayName('  ', 'fallback')).toBe('fallback');
    expect(cleanDisplayName(42, 'fallback')).toBe('fallback');
    expect(cleanDisplayName('a'.repeat(300), 'x')).toHaveLength(100);
  });
});
