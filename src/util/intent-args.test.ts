import { describe, expect, it } from 'vitest';
import { COMPONENT_RE, EXTRA_KEY_RE, INTENT_NAME_RE, extraValueProblem } from './intent-args.js';

describe('intent argument rules', () => {
  it('checks each extra value against its type', () => {
    expect(extraValueProblem('int', '2147483647')).toBeNull();
    expect(extraValueProblem('int', '2147483648')).toMatch(/32-bit/);
    expect(extraValueProblem('long', '-9223372036854775808')).toBeNull();
    expect(extraValueProblem('long', '9223372036854775808')).toMatch(/64-bit/);
    expect(extraValueProblem('bool', 'true')).toBeNull();
    expect(extraValueProblem('bool', 'yes')).toMatch(/true/);
    expect(extraValueProblem('float', '-1.5e3')).toBeNull();
    expect(extraValueProblem('float', 'NaN')).toMatch(/decimal/);
    expect(extraValueProblem('string', "a'; rm -rf / ; echo '\n$(x)")).toBeNull();
    expect(extraValueProblem('string', 'bell\u0007')).toMatch(/control/);
  });

  it('accepts real names and refuses shell-shaped ones', () => {
    expect(INTENT_NAME_RE.test('android.intent.action.VIEW')).toBe(true);
    expect(INTENT_NAME_RE.test('a;reboot')).toBe(false);
    expect(COMPONENT_RE.test('com.example.app/.MainActivity')).toBe(true);
    expect(COMPONENT_RE.test('com.example.app/com.example.app.ui.Main$Inner')).toBe(true);
    expect(COMPONENT_RE.test('com.example.app/.Main Activity')).toBe(false);
    expect(EXTRA_KEY_RE.test('com.example.extra.MODE')).toBe(true);
    expect(EXTRA_KEY_RE.test('-e')).toBe(false);
    expect(EXTRA_KEY_RE.test('k$(reboot)')).toBe(false);
  });
});
