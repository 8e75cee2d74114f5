/**
 * What some apps do on their own when an activity of theirs starts — the simulator runs no app code,
 * so the ones clients depend on are modelled here, each from its source.
 *
 * Appium Settings (io.appium.settings, which Appium's UiAutomator2 driver installs and starts with its
 * launcher intent, then waits for `isForeground=true` in `dumpsys activity services io.appium.settings`):
 * its Settings activity's onCreate starts ForegroundService with startForegroundService on Android 8+
 * and finishes itself a second later (app/src/main/java/io/appium/settings/Settings.java, onCreate).
 */
import type { RunningServices } from './services.js';
import { since } from './android-versions.js';

const APPIUM_SETTINGS = 'io.appium.settings';

/** What an app's start may touch. */
export interface AppStart {
  sdk: number;
  services: RunningServices;
  /** Finishes the activity that started (Activity.finish), if it is still there. */
  finish(): void;
}

export function activityCreated(pkg: string, cls: string, app: AppStart): void {
  if (pkg === APPIUM_SETTINGS && cls === `${APPIUM_SETTINGS}.Settings`) {
    if (since(app.sdk, 'foregroundServiceStart')) {
      // ForegroundService.onStartCommand: startForeground(NOTIFICATION_ID = 1, …).
      app.services.start({ pkg, cls: `${APPIUM_SETTINGS}.ForegroundService`, foregroundId: 1, types: 0 });
    }
    setTimeout(() => app.finish(), 1_000).unref();
  }
}
