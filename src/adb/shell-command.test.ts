import { describe, expect, it } from 'vitest';
import { sh, shArgv } from './shell-command.js';

describe('building device shell commands', () => {
  it('quotes every element of an argument vector, leaving plain words as they are', () => {
    expect(shArgv(['input', 'text', 'a; touch /x'])).toBe("input text 'a; touch /x'");
    expect(shArgv(['input', 'tap', 540, 1200])).toBe('input tap 540 1200');
  });

  it('quotes every interpolated value of a template and trusts only its literal text', () => {
    const pkg = "com.x'; reboot; echo '";
    expect(sh`pm path ${pkg}`).toBe(`pm path 'com.x'\\''; reboot; echo '\\'''`);
    expect(sh`getprop; echo ${'@@m@@'}`).toBe('getprop; echo @@m@@');
  });
});
