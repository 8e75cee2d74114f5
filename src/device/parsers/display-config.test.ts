import { describe, expect, it } from 'vitest';
import { parseAppLocales, parseDisplayConfig } from './display-config.js';

describe('parseDisplayConfig', () => {
  it('reads the physical display and the overrides, font scale and night mode', () => {
    // `wm size` / `wm density` as WindowManagerShellCommand prints them, with CRLF as a pty shell gives them.
    const parsed = parseDisplayConfig(
      'Physical size: 1080x2400\r\nOverride size: 720x1280\r\n',
      'Physical density: 420\r\nOverride density: 320\r\n',
      '1.3\r\n',
      'Night mode: yes\r\n',
    );
    expect(parsed).toEqual({
      physical: { width: 1080, height: 2400, density: 420 },
      current: { size: { width: 720, height: 1280 }, density: 320, font_scale: 1.3, night: 'yes' },
    });
  });

  it('says null for what is unset or unknown, and nothing without a physical size', () => {
    const parsed = parseDisplayConfig(
      'Physical size: 1440x3120\n',
      'Physical density: 560\n',
      'null\n',
      'Night mode: custom\n',
    );
    expect(parsed?.current).toEqual({ size: null, density: null, font_scale: null, night: null });
    expect(parseDisplayConfig('Error: no display\n', 'Physical density: 560\n', '1.0', '')).toBeNull();
  });

  it("reads an app's own locales as LocaleManagerShellCommand prints them", () => {
    expect(parseAppLocales('Locales for com.example.app for user 0 are [ar,en-US]\n')).toBe('ar,en-US');
    expect(parseAppLocales('Locales for com.example.app for user 0 are []\n')).toBe('');
    expect(parseAppLocales('Unknown package com.example.gone for userId 0\n')).toBeNull();
  });
});
