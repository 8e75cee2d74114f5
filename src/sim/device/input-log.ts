/**
 * Evidence: none — a log for tests, modelling nothing a phone does: every input the device received
 * (`input …` and the UI helper's gestures, keys and text), which `sim stats` reports so a test can
 * compare them with what another client (Maestro's FakeDriver) records.
 */
import type { DeviceStats } from './device.js';

/** How many inputs `sim stats` keeps (a test reads the ones since it looked last). */
const INPUT_LOG_MAX = 500;

/** Records one input: the last one, and in the log of them. */
export function noteInput(stats: DeviceStats, entry: (string | number)[]): void {
  stats.lastInput = entry;
  stats.inputs.push(entry);
  if (stats.inputs.length > INPUT_LOG_MAX) {
    stats.inputs.splice(0, stats.inputs.length - INPUT_LOG_MAX);
  }
}
