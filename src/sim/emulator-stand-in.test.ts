import { describe, expect, it } from 'vitest';
import { parseStandInArgs } from './emulator-stand-in.js';

describe('the emulator stand-in command line', () => {
  it('reads the ways the emulator is started and listed', () => {
    expect(parseStandInArgs(['-list-avds'])).toEqual({ kind: 'list' });
    expect(parseStandInArgs(['-avd', 'Pixel_8_API_34'])).toEqual({
      kind: 'run',
      avd: 'Pixel_8_API_34',
      port: null,
    });
    expect(parseStandInArgs(['@Pixel_8_API_34', '-port', '5580'])).toEqual({
      kind: 'run',
      avd: 'Pixel_8_API_34',
      port: 5580,
    });
    expect(parseStandInArgs(['-netdelay', 'none', '-no-window', '-avd', 'A'])).toMatchObject({ avd: 'A' });
  });

  it('refuses a missing AVD and an odd console port, as the emulator does', () => {
    expect(parseStandInArgs(['-no-window'])).toMatchObject({ kind: 'usage' });
    expect(parseStandInArgs(['-avd'])).toMatchObject({ kind: 'usage' });
    expect(parseStandInArgs(['-avd', 'A', '-port', '5581'])).toMatchObject({ kind: 'usage' });
  });
});
