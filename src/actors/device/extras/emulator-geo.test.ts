import { describe, expect, it } from 'vitest';
import { consoleNumber, emulatorConsolePort, geoFixCommand } from './emulator-geo.js';

describe('emulator console geo fix', () => {
  it('puts the longitude first, as the console expects', () => {
    expect(geoFixCommand(37.422, -122.084)).toBe('geo fix -122.084 37.422');
    expect(geoFixCommand(-33.8568, 151.2153, 58)).toBe('geo fix 151.2153 -33.8568 58');
  });

  it('writes coordinates without exponents', () => {
    expect(consoleNumber(1e-7)).toBe('0.0000001');
    expect(consoleNumber(-0.00000001)).toBe('0');
    expect(consoleNumber(180)).toBe('180');
  });

  it('finds the console port only in emulator serials', () => {
    expect(emulatorConsolePort('emulator-5554')).toBe(5554);
    expect(emulatorConsolePort('127.0.0.1:5555')).toBeNull();
    expect(emulatorConsolePort('R58M12345')).toBeNull();
    expect(emulatorConsolePort('emulator-99999')).toBeNull();
  });
});
