/**
 * The sample project's `gradlew` is not Gradle: `droidbus sim --sample-project` writes a stand-in
 * that prints Gradle-like output and writes the APK. Its second line says so, and whatever reports
 * on a project's wrapper (doctor, run_health_check, the demo) says so too.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** The comment line every stand-in `gradlew` carries (its second line). */
export const GRADLEW_STAND_IN_LINE =
  'Gradle wrapper stand-in written by `droidbus sim --sample-project`: no Gradle runs here.';

/** True when the file at `wrapper` is droidbus's stand-in (read from its first 512 bytes). */
export function isGradlewStandIn(wrapper: string): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(wrapper, 'r');
    const head = Buffer.alloc(512);
    const n = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, n).toString('utf8').includes(GRADLEW_STAND_IN_LINE);
  } catch {
    return false;
  } finally {
    if (fd !== null) {
      closeSync(fd);
    }
  }
}
