import { describe, expect, it } from 'vitest';
import { parseAppLocales, parseDisplayConfig } from './display-config.js';

describe('parseDisplayConfig', () => {
  it('reads the physical display and the overrides, font scale and night mode', () => {
    // `wm size` / `wm density` as WindowManagerShellCommand prints them, with CRLF as a pty shell gives them.
    const parsed = parseDisplayConfig({
      size: 'Physical size: 1080x2400\r\nOverride size: 720x1280\r\n',
      density: 'Physical density: 420\r\nOverride density: 320\r\n',
      fontScale: '1.3\r\n',
      night: 'Night mode: yes\r\n',
      windowScale: '0.0\n',
      transitionScale: '0.5\n',
      animatorScale: 'null\n',
      autoRotate: '0\n',
      userRotation: '1\n',
    });
    expect(parsed).toEqual({
      physical: { width: 1080, height: 2400, density: 420 },
      current: {
        size: { width: 720, height: 1280 },
        density: 320,
        font_scale: 1.3,
        night: 'yes',
        animations: { window: 0, transition: 0.5, animator: null },
        rotation: { accelerometer: false, user: 1 },
      },
    });
  });

  it('says null for what is unset or unknown, and nothing without a physical size', () => {
    const unset = {
      windowScale: 'null',
      transitionScale: 'null',
      animatorScale: 'null',
      autoRotate: '',
      userRotation: '',
    };
    const parsed = parseDisplayConfig({
      size: 'Physical size: 1440x3120\n',
      density: 'Physical density: 560\n',
      fontScale: 'null\n',
      night: 'Night mode: custom\n',
      ...unset,
    });
    expect(parsed?.current).toEqual({
      size: null,
      density: null,
      font_scale: null,
      night: null,
      animations: { window: null, transition: null, animator: null },
      rotation: { accelerometer: null, user: null },
    });
    expect(
      parseDisplayConfig({
        size: 'Error: no display\n',
        density: 'Physical density: 560\n',
        fontScale: '1.0',
        night: '',
        ...unset,
      }),
    ).toBeNull();
  });

  it("reads an app's own locales as LocaleManagerShellCommand prints them", () => {
    expect(parseAppLocales('Locales for com.example.app for user 0 are [ar,en-US]\n')).toBe('ar,en-US');
    expect(parseAppLocales('Locales for com.example.app for user 0 are []\n')).toBe('');
    expect(parseAppLocales('Unknown package com.example.gone for userId 0\n')).toBeNull();
  });
});
