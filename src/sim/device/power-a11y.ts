/**
 * Two things a UiAutomator2 server changes on a phone while it runs, as the simulator models them.
 *
 * * Its screen wake lock: ServerInstrumentation (appium-uiautomator2-server, server/
 *   ServerInstrumentation.java: WAKE_LOCK_TAG "UiAutomator2:ScreenKeeper", acquireWakeLock) takes a
 *   SCREEN_DIM_WAKE_LOCK for MAX_TEST_DURATION (24 h) when its HTTP server starts and wakes the
 *   screen; the `wakeLockTimeout` setting acquires it again for that long, 0 releases it (what the
 *   driver sends when a session ends); the lock dies with the process. `dumpsys power` lists held
 *   locks as PowerManagerService's WakeLock.toString prints them on Android 10+: the level padded to
 *   30 characters (getLockLevelString), ` 'tag'`, ` ACQ=` and the age (TimeUtils.formatDuration of
 *   acquire time minus now), ` (uid=U pid=P)`; no flags (the server takes none), no work source.
 * * Accessibility services suppressed: while a UiAutomation is connected without
 *   FLAG_DONT_SUPPRESS_ACCESSIBILITY_SERVICES (the server sets it only when started with
 *   `-e DISABLE_SUPPRESS_ACCESSIBILITY_SERVICES true`, and only on Android 7+), the
 *   AccessibilityManagerService unbinds every service ("Settings are not changed so when the
 *   automation service goes away the state is restored from the settings" —
 *   registerUiTestAutomationService) and touch exploration goes off. `dumpsys accessibility` prints
 *   the user state as AccessibilityUserState.dump does: "Bound services:{…}" then "Enabled
 *   services:{…}" (each bound service as AbstractAccessibilityServiceConnection.dump starts it,
 *   `Service[label=…`; its feedback types, capabilities, event types and timeouts are left out).
 */
import type { Settings } from './settings.js';

export interface WakeLock {
  level: 'SCREEN_DIM_WAKE_LOCK' | 'PARTIAL_WAKE_LOCK';
  tag: string;
  acquiredAt: number;
  /** When it lapses (epoch ms). */
  until: number;
  uid: number;
  pid: number;
}

/** Held wake locks and the UiAutomation's suppression, per device. */
export class PowerAndAccessibility {
  private readonly locks = new Map<string, WakeLock>();
  /** Set while a UiAutomation that suppresses other services is connected. */
  suppressing = false;

  acquire(lock: WakeLock): void {
    this.locks.set(lock.tag, lock);
  }

  release(tag: string): void {
    this.locks.delete(tag);
  }

  held(now = Date.now()): WakeLock[] {
    for (const [tag, lock] of this.locks) {
      if (lock.until <= now) {
        this.locks.delete(tag);
      }
    }
    return [...this.locks.values()];
  }
}

/** `TimeUtils.formatDuration` of a negative age: `-1m2s345ms`. */
function age(ms: number): string {
  const m = Math.floor(ms / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `-${m > 0 ? `${m}m` : ''}${m > 0 || s > 0 ? `${s}s` : ''}${ms % 1000}ms`;
}

/** The "Wake Locks:" section of `dumpsys power`. */
export function wakeLockSection(power: PowerAndAccessibility, now = Date.now()): string {
  const held = power.held(now);
  return [
    `Wake Locks: size=${held.length}`,
    ...held.map(
      (l) =>
        `  ${l.level}              '${l.tag}' ACQ=${age(now - l.acquiredAt)} (uid=${l.uid} pid=${l.pid})`,
    ),
  ].join('\n');
}

/** `dumpsys accessibility`: the current user's state. */
export function dumpAccessibility(power: PowerAndAccessibility, settings: Settings): string {
  const enabled = (settings.get('secure', 'enabled_accessibility_services') ?? '')
    .split(':')
    .filter((c) => c !== '');
  const bound = power.suppressing ? [] : enabled;
  const touchExploration = settings.get('secure', 'touch_exploration_enabled') === '1' && !power.suppressing;
  // A device loads the label from the service's resources; the simulator takes its class name
  // (TalkBackService → TalkBack). The attributes line keeps three of its many fields.
  const label = (component: string): string =>
    component
      .split('/')
      .pop()!
      .split('.')
      .pop()!
      .replace(/Service$/, '');
  return `ACCESSIBILITY MANAGER (dumpsys accessibility)

currentUserId=0
User state[
     attributes:{id=0, touchExplorationEnabled=${touchExploration}, installedServiceCount=${enabled.length}}
     Bound services:{${bound.map((c) => `Service[label=${label(c)}]`).join(', \n                     ')}}
     Enabled services:{${enabled.map((c) => `{${c}}`).join(', ')}}
     Binding services:{}
     Crashed services:{}
]
`;
}
