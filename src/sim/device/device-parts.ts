/**
 * What a simulated device holds of the parts that run beside it — the helper's server, the log
 * generator, the recording it replays — as interfaces, so the device model (device.ts) does not
 * import the modules that implement them (each of which reads the device): they are made and
 * attached by createSimDevice (index.ts). Also the notification a device shows, which System UI's
 * shade draws.
 *
 * Evidence: none — interfaces between the model and the parts that run beside it.
 */
import type { Duplex } from 'node:stream';
import type { Domain } from './recorded-reads.js';
import type { DeviceProfile } from '../../profile/profile-format.js';

/** One posted notification (`cmd notification post`, `sim notify`). */
export interface SimNotification {
  id: number;
  pkg: string;
  uid: number;
  tag: string | null;
  title: string;
  text: string;
  subText: string | null;
  channel: string;
  when: number;
  ongoing: boolean;
  importance: number;
  actions: string[];
}

/** The UiAutomator2 server while its instrumentation runs (helper-server.ts). */
export interface HelperProcess {
  readonly isRunning: boolean;
  readonly holdsUiAutomation: boolean;
  accept(socket: Duplex): void;
  stop(): void;
}

/** The background log lines a device writes (log/log-generator.ts). */
export interface LogSource {
  start(): void;
  stop(): void;
}

/** The recording a profile device answers from (profile-replay.ts). */
export interface DeviceRecording {
  readonly profile: DeviceProfile;
  /** A change made outside the device's own commands (the emulator console's `geo fix`, a `sim` control). */
  invalidate(domain: Domain): void;
  /** The UI helper's recorded page source while the screen has not changed, else null. */
  helperSource(): string | null;
  /** What `sim stats` says of the replay. */
  stats(): object;
}
