import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_TEXT_BYTES,
  clearTextBroadcastArgs,
  decodeInputText,
  deleteTextArgs,
  keyeventArgs,
  knownKeyNames,
  resolveKey,
  swipeArgs,
  tapArgs,
  typeTextArgs,
  unicodeTextArgs,
} from './ui-input.js';
import type { UiResult } from '../../../device/ui-dump/ui-types.js';

function ok<T>(r: UiResult<T>): T {
  if (!r.ok) {
    throw new Error(r.error.message);
  }
  return r.value;
}

function refused<T>(r: UiResult<T>): string {
  expect(r.ok).toBe(false);
  return r.ok ? '' : r.error.message;
}

describe('tap and swipe', () => {
  it('build input tap and input swipe argument vectors', () => {
    expect(ok(tapArgs(540, 1270))).toEqual(['input', 'tap', '540', '1270']);
    expect(ok(swipeArgs(540, 1800, 540, 600))).toEqual([
      'input',
      'swipe',
      '540',
      '1800',
      '540',
      '600',
      '300',
    ]);
    expect(ok(swipeArgs(0, 0, 10, 10, 0))).toEqual(['input', 'swipe', '0', '0', '10', '10', '0']);
  });

  it('refuse coordinates that are negative, fractional, huge or not numbers', () => {
    for (const [x, y] of [
      [-1, 5],
      [1.5, 2],
      [100_001, 0],
      [Number.NaN, 0],
      [Number.POSITIVE_INFINITY, 0],
    ] as Array<[number, number]>) {
      expect(refused(tapArgs(x, y))).toMatch(/whole numbers from 0 to 100000/);
    }
    expect(refused(swipeArgs(0, 0, 1, 1, -5))).toMatch(/duration/);
    expect(refused(swipeArgs(0, 0, 1, 1, 60_001))).toMatch(/duration/);
  });
});

describe('keys', () => {
  it('accept KEYCODE names, bare names, aliases and numbers 0–300', () => {
    expect(ok(keyeventArgs('KEYCODE_BACK'))).toEqual(['input', 'keyevent', 'KEYCODE_BACK']);
    expect(ok(resolveKey('back'))).toBe('KEYCODE_BACK');
    expect(ok(resolveKey('HOME'))).toBe('KEYCODE_HOME');
    expect(ok(resolveKey('Enter'))).toBe('KEYCODE_ENTER');
    expect(ok(resolveKey('DEL'))).toBe('KEYCODE_DEL');
    expect(ok(resolveKey('backspace'))).toBe('KEYCODE_DEL');
    expect(ok(resolveKey('TAB'))).toBe('KEYCODE_TAB');
    expect(ok(resolveKey('ESCAPE'))).toBe('KEYCODE_ESCAPE');
    expect(ok(resolveKey('esc'))).toBe('KEYCODE_ESCAPE');
    expect(ok(resolveKey('up'))).toBe('KEYCODE_DPAD_UP');
    expect(ok(resolveKey('recents'))).toBe('KEYCODE_APP_SWITCH');
    expect(ok(resolveKey('volume up'))).toBe('KEYCODE_VOLUME_UP');
    expect(ok(resolveKey('keycode_media_play_pause'))).toBe('KEYCODE_MEDIA_PLAY_PAUSE');
    expect(ok(resolveKey('KEYCODE_F24'))).toBe('KEYCODE_F24');
    expect(ok(resolveKey('3D_MODE'))).toBe('KEYCODE_3D_MODE');
    expect(ok(resolveKey('4'))).toBe('4');
    expect(ok(resolveKey('0'))).toBe('0');
    expect(ok(resolveKey('300'))).toBe('300');
  });

  it('know the Android key codes by their numbers', () => {
    const names = knownKeyNames();
    expect(names).toHaveLength(338);
    expect([
      names[3],
      names[4],
      names[66],
      names[67],
      names[111],
      names[187],
      names[227],
      names[337],
    ]).toEqual(['HOME', 'BACK', 'ENTER', 'DEL', 'ESCAPE', 'APP_SWITCH', '11', 'F24']);
    expect(new Set(names).size).toBe(names.length);
  });

  it('refuse unknown names, out-of-range numbers and anything shell-like', () => {
    for (const bad of [
      'KEYCODE_FOO',
      'BACK; rm -rf /',
      '301',
      '-1',
      '',
      '  ',
      'KEYCODE_',
      '$(reboot)',
      'BACK\nHOME',
      '1e2',
      '4.0',
    ]) {
      expect(refused(resolveKey(bad))).toMatch(/unknown key|out of range/);
    }
  });
});

describe('typeTextArgs', () => {
  it('writes spaces as %s', () => {
    expect(ok(typeTextArgs('hello world'))).toEqual([['input', 'text', 'hello%sworld']]);
    expect(ok(typeTextArgs(' a  b '))).toEqual([['input', 'text', '%sa%s%sb%s']]);
  });

  it('types a literal %s as two commands split between % and s', () => {
    expect(ok(typeTextArgs('100%sure'))).toEqual([
      ['input', 'text', '100%'],
      ['input', 'text', 'sure'],
    ]);
    expect(ok(typeTextArgs('%s %s'))).toEqual([
      ['input', 'text', '%'],
      ['input', 'text', 's%s%'],
      ['input', 'text', 's'],
    ]);
    expect(ok(typeTextArgs('50% off'))).toEqual([['input', 'text', '50%%soff']]);
  });

  it('types any printable ASCII text exactly, as the device decodes each command', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(...' %s%%a\'"\\$;&|`()<>*?!#~'.split('')),
          minLength: 1,
          maxLength: 60,
        }),
        (text) => {
          const cmds = ok(typeTextArgs(text));
          return (
            cmds.map((c) => decodeInputText(c[2] ?? '')).join('') === text &&
            cmds.every((c) => !(c[2] ?? '').includes(' '))
          );
        },
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
          minLength: 1,
          maxLength: 200,
        }),
        (text) => {
          return (
            ok(typeTextArgs(text))
              .map((c) => decodeInputText(c[2] ?? ''))
              .join('') === text
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses non-ASCII, line breaks, tabs, empty and oversized text', () => {
    expect(refused(typeTextArgs('héllo'))).toMatch(/non-ASCII character "é" at position 1.*unicode/);
    expect(refused(typeTextArgs('a\nb'))).toMatch(/control character U\+000A.*ENTER/);
    expect(refused(typeTextArgs('a\tb'))).toMatch(/U\+0009/);
    expect(refused(typeTextArgs(''))).toMatch(/empty/);
    expect(ok(typeTextArgs('x'.repeat(MAX_TEXT_BYTES)))).toHaveLength(1);
    expect(refused(typeTextArgs('x'.repeat(MAX_TEXT_BYTES + 1)))).toMatch(/1001 bytes/);
  });
});

describe('unicodeTextArgs', () => {
  it('sends the text base64-encoded through the ADBKeyBoard broadcast', () => {
    const argv = ok(unicodeTextArgs('登录 ✓ café 🙂'));
    expect(argv.slice(0, 6)).toEqual(['am', 'broadcast', '-a', 'ADB_INPUT_B64', '--es', 'msg']);
    expect(Buffer.from(argv[6] ?? '', 'base64').toString('utf8')).toBe('登录 ✓ café 🙂');
    expect(argv[6]).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(clearTextBroadcastArgs()).toEqual(['am', 'broadcast', '-a', 'ADB_CLEAR_TEXT']);
  });

  it('counts the limit in UTF-8 bytes and refuses lone surrogates', () => {
    expect(ok(unicodeTextArgs('字'.repeat(333)))).toHaveLength(7);
    expect(refused(unicodeTextArgs('字'.repeat(334)))).toMatch(/1002 bytes/);
    expect(refused(unicodeTextArgs('a\uD800b'))).toMatch(/surrogate/);
  });
});

describe('deleteTextArgs', () => {
  it('moves to the end and deletes, at most 50 keys per command', () => {
    expect(ok(deleteTextArgs(2))).toEqual([
      ['input', 'keyevent', 'KEYCODE_MOVE_END', 'KEYCODE_DEL', 'KEYCODE_DEL'],
    ]);
    const many = ok(deleteTextArgs(120));
    expect(many.map((c) => c.length - 2)).toEqual([50, 50, 21]);
    expect(many.flat().filter((k) => k === 'KEYCODE_DEL')).toHaveLength(120);
  });

  it('refuses counts outside 1–1000', () => {
    for (const bad of [0, -1, 1001, 2.5, Number.NaN]) {
      expect(refused(deleteTextArgs(bad))).toMatch(/count must be/);
    }
  });
});
