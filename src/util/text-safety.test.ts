import { describe, expect, it } from 'vitest';
import { checkOpenableUri } from './uri-scheme.js';
import { extraValueProblem } from './intent-args.js';
import { quotedSafely, unsafeTextProblem } from './text-safety.js';

const RLO = '\u202e';
const LONE = '\ud83d';

describe('text that must not reach a device as it is', () => {
  it('finds unpaired surrogates and bidi controls, and passes whole characters of any script', () => {
    expect(unsafeTextProblem(`a${LONE}b`)).toMatch(/unpaired UTF-16 surrogate/);
    expect(unsafeTextProblem('\udc00x')).toMatch(/unpaired/);
    expect(unsafeTextProblem(`invoice${RLO}fdp.exe`)).toMatch(/bidirectional-text controls/);
    expect(unsafeTextProblem('a\u2066b\u2069')).toMatch(/bidirectional/);
    for (const ok of ['Zoë 世界 🙂', 'שלום עולם', 'مرحبا', 'plain']) {
      expect(unsafeTextProblem(ok), ok).toBeNull();
    }
  });

  it('refuses them in a deep link and a string extra, and never echoes them raw', () => {
    const uri = checkOpenableUri(`myapp://item/${RLO}42`);
    expect(uri.ok).toBe(false);
    expect(!uri.ok && uri.message).toMatch(/bidirectional/);
    expect(checkOpenableUri(`https://example.com/${LONE}`).ok).toBe(false);
    expect(extraValueProblem('string', `x${RLO}y`)).toMatch(/bidirectional/);
    expect(extraValueProblem('string', 'Zoë 🙂')).toBeNull();
    const echoed = extraValueProblem('int', `4${RLO}2${LONE}`);
    expect(echoed).toContain('\\u202e');
    expect(echoed).toContain('\\ud83d');
    expect(echoed).not.toContain(RLO);
    expect(quotedSafely('🙂'.repeat(50)).length).toBe(80);
  });
});
