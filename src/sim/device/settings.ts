/**
 * Evidence: frameworks/base/core/java/android/provider/Settings.java (the three namespaces and the
 * keys read here) and SettingsProvider's res/values/defaults.xml (their defaults).
 */
import type { SimDeviceIdentity } from '../device-api.js';
import { hashString } from './ids.js';

export type SettingsNamespace = 'global' | 'secure' | 'system';

export const GBOARD_IME = 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME';
export const ADB_KEYBOARD_IME = 'com.android.adbkeyboard/.AdbIME';

/** The settings database of a device: three namespaces of string values. */
export class Settings {
  private readonly tables: Record<SettingsNamespace, Map<string, string>>;

  constructor(identity: SimDeviceIdentity) {
    const androidId = (
      hashString(identity.serial).toString(16) + hashString(identity.serial + 'id').toString(16)
    )
      .padStart(16, '0')
      .slice(0, 16);
    this.tables = {
      global: new Map([
        ['adb_enabled', '1'],
        ['adb_wifi_enabled', identity.serial.includes(':') ? '1' : '0'],
        ['airplane_mode_on', '0'],
        ['animator_duration_scale', '1.0'],
        ['auto_time', '1'],
        ['auto_time_zone', '1'],
        ['bluetooth_on', '0'],
        ['boot_count', '1'],
        ['data_roaming', '0'],
        ['development_settings_enabled', '1'],
        ['device_name', identity.model],
        ['device_provisioned', '1'],
        ['mobile_data', '1'],
        ['package_verifier_user_consent', '-1'],
        ['stay_on_while_plugged_in', '0'],
        ['transition_animation_scale', '1.0'],
        ['verifier_verify_adb_installs', '0'],
        ['wifi_on', '1'],
        ['window_animation_scale', '1.0'],
      ]),
      secure: new Map([
        ['accessibility_enabled', '0'],
        ['android_id', androidId],
        ['default_input_method', GBOARD_IME],
        ['enabled_input_methods', GBOARD_IME],
        ['location_mode', '3'],
        ['location_providers_allowed', 'gps,network'],
        ['show_ime_with_hard_keyboard', '0'],
        ['skip_first_use_hints', '1'],
        ['user_setup_complete', '1'],
      ]),
      system: new Map([
        ['accelerometer_rotation', '1'],
        ['font_scale', '1.0'],
        ['haptic_feedback_enabled', '1'],
        ['screen_brightness', '102'],
        ['screen_brightness_mode', '1'],
        ['screen_off_timeout', '60000'],
        ['show_touches', '0'],
        ['pointer_location', '0'],
        ['sound_effects_enabled', '1'],
        ['user_rotation', '0'],
      ]),
    };
  }

  get(ns: SettingsNamespace, key: string): string | undefined {
    return this.tables[ns].get(key);
  }

  put(ns: SettingsNamespace, key: string, value: string): void {
    this.tables[ns].set(key, value);
    this.changed(ns, key);
  }

  /** Removes a key; true when it existed. */
  delete(ns: SettingsNamespace, key: string): boolean {
    const existed = this.tables[ns].delete(key);
    this.changed(ns, key);
    return existed;
  }

  /**
   * Runs `onChange` whenever `ns`/`key` is written or deleted, as a ContentObserver registered on the
   * setting's URI is told (the system services that watch a setting, ConnectivityService's on
   * Settings.Global.HTTP_PROXY among them).
   */
  observe(ns: SettingsNamespace, key: string, onChange: () => void): void {
    this.observers.push({ ns, key, onChange });
  }

  private readonly observers: { ns: SettingsNamespace; key: string; onChange: () => void }[] = [];

  private changed(ns: SettingsNamespace, key: string): void {
    for (const o of this.observers) {
      if (o.ns === ns && o.key === key) {
        o.onChange();
      }
    }
  }

  list(ns: SettingsNamespace): [string, string][] {
    return [...this.tables[ns].entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** A global flag read as a boolean (`1`). */
  flag(key: string): boolean {
    return this.tables.global.get(key) === '1';
  }
}

/** True for the namespaces `settings` accepts. */
export function isNamespace(s: string | undefined): s is SettingsNamespace {
  return s === 'global' || s === 'secure' || s === 'system';
}
