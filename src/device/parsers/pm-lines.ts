/**
 * The values of `pm list packages` and `pm path` output: one `package:VALUE` line each (a package
 * name, or an APK's path), in order. Other lines (warnings, blank lines, `\r` of old shells) are
 * skipped.
 */
export function pmValues(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.startsWith('package:'))
    .map((l) => l.slice('package:'.length).trim());
}
