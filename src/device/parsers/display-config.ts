/**
 * A device's display configuration from its own tools: `wm size` (`Physical size: 1080x2400`, then
 * `Override size: 720x1280` while one is set), `wm density` (`Physical density: 420`,
 * `Override density: 320`), `settings get system font_scale` (`1.3`, or `null` while unset) and
 * `cmd uimode night` (`Night mode: no|yes|auto|custom`), the three animation scales and the two
 * rotation settings (`settings get`: a number, or `null` while unset).
 *
 * Evidence: AOSP WindowManagerShellCommand (runDisplaySize, runDisplayDensity print those lines),
 * SettingsService (`null` for an unset key), UiModeManagerService's shell command (`Night mode: ` and
 * the mode's name); the sizes and densities as a Pixel prints them (tests/fixtures and notes/adb-facts.md).
 */
import type { DisplayConfig, PhysicalDisplay } from '../../bus/messages/device-config.js';

/** What the display reads print, each read's output. */
export interface DisplayReads {
  size: string;
  density: string;
  fontScale: string;
  night: string;
  windowScale: string;
  transitionScale: string;
  animatorScale: string;
  autoRotate: string;
  userRotation: string;
}

/** A float setting (`1.0`, `0.5`); null when unset (`null`) or unreadable. */
function floatSetting(text: string): number | null {
  const t = text.trim();
  const v = Number(t);
  return t !== '' && t !== 'null' && Number.isFinite(v) && v >= 0 ? v : null;
}

/** The physical display and the configuration now; null when `wm size` says no physical size. */
export function parseDisplayConfig(
  r: DisplayReads,
): { physical: PhysicalDisplay; current: DisplayConfig } | null {
  const physical = /Physical size:\s*(\d+)x(\d+)/.exec(r.size);
  const physicalDensity = /Physical density:\s*(\d+)/.exec(r.density);
  if (physical === null || physicalDensity === null) {
    return null;
  }
  const override = /Override size:\s*(\d+)x(\d+)/.exec(r.size);
  const overrideDensity = /Override density:\s*(\d+)/.exec(r.density);
  const scale = floatSetting(r.fontScale);
  const mode = /Night mode:\s*(yes|no|auto)\b/.exec(r.night)?.[1];
  const auto = r.autoRotate.trim();
  const user = Number(r.userRotation.trim());
  return {
    physical: {
      width: Number(physical[1]),
      height: Number(physical[2]),
      density: Number(physicalDensity[1]),
    },
    current: {
      size: override === null ? null : { width: Number(override[1]), height: Number(override[2]) },
      density: overrideDensity === null ? null : Number(overrideDensity[1]),
      font_scale: scale !== null && scale > 0 ? scale : null,
      night: mode === 'yes' || mode === 'no' || mode === 'auto' ? mode : null,
      animations: {
        window: floatSetting(r.windowScale),
        transition: floatSetting(r.transitionScale),
        animator: floatSetting(r.animatorScale),
      },
      rotation: {
        accelerometer: auto === '1' ? true : auto === '0' ? false : null,
        user: /^[0-3]$/.test(r.userRotation.trim()) ? user : null,
      },
    },
  };
}

/**
 * The tags `cmd locale get-app-locales PKG` prints (`Locales for PKG for user 0 are [ar]`,
 * LocaleManagerShellCommand, Android 13); null when it did not say (an unknown package).
 */
export function parseAppLocales(out: string): string | null {
  return /Locales for \S+ for user \d+ are \[([^\]]*)\]/.exec(out)?.[1] ?? null;
}
