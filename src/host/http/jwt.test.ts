import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { JwtError, checkTimes, signJwt, verifyJwt } from './jwt.js';

const secret = randomBytes(32);

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('HS256 JWTs', () => {
  it('verifies what it signed and returns the claims', () => {
    const token = signJwt({ sub: 'a', n: 1 }, secret, 'at+jwt');
    expect(verifyJwt(token, secret, 'at+jwt')).toEqual({ sub: 'a', n: 1 });
  });

  it('agrees with a standard JWT library in both directions', async () => {
    const ours = signJwt({ aud: 'x', exp: Math.floor(Date.now() / 1000) + 60 }, secret, 'at+jwt');
    const { payload, protectedHeader } = await jwtVerify(ours, secret, { audience: 'x' });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'at+jwt' });
    expect(payload['aud']).toBe('x');
    const theirs = await new SignJWT({ k: 'v' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .sign(secret);
    expect(verifyJwt(theirs, secret, 'at+jwt')).toEqual({ k: 'v' });
  });

  it('refuses another secret, a changed payload, another type, alg none and alg HS512', () => {
    const token = signJwt({ sub: 'a' }, secret, 'at+jwt');
    expect(() => verifyJwt(token, randomBytes(32), 'at+jwt')).toThrow(JwtError);
    const [h, , sig] = token.split('.');
    expect(() => verifyJwt(`${h}.${b64({ sub: 'b' })}.${sig}`, secret, 'at+jwt')).toThrow(/signature/);
    expect(() => verifyJwt(token, secret, 'rt+jwt')).toThrow(/type/);
    expect(() =>
      verifyJwt(`${b64({ alg: 'none', typ: 'at+jwt' })}.${b64({ sub: 'a' })}.`, secret, 'at+jwt'),
    ).toThrow(/HS256/);
    expect(() =>
      verifyJwt(`${b64({ alg: 'HS512', typ: 'at+jwt' })}.${b64({})}.${sig}`, secret, 'at+jwt'),
    ).toThrow(/HS256/);
    expect(() => verifyJwt('not.a.jwt!', secret, 'at+jwt')).toThrow(JwtError);
    expect(() => verifyJwt('a.b', secret, 'at+jwt')).toThrow(JwtError);
  });

  it('refuses an expired token or one without expiry, allowing a little clock skew', () => {
    const now = 1_000_000;
    expect(() => checkTimes({}, now)).toThrow(/no expiry/);
    expect(() => checkTimes({ exp: now - 31 }, now)).toThrow(/expired/);
    expect(() => checkTimes({ exp: now - 10 }, now)).not.toThrow();
    expect(() => checkTimes({ exp: now + 100, iat: now + 3600 }, now)).toThrow(/future/);
  });
});
