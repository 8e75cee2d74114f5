/**
 * Which frame of a Java trace a headline names: the platform's frames (and the libraries every app
 * ships from it) against the app's own — or, obfuscated, its renamed `a.b.c` classes, which are
 * neither the platform nor known to be the app's, and are the app's code more often than not.
 */

/** Classes of the platform and of what every app ships: a frame under them is not where a bug is. */
export const PLATFORM_FRAME =
  /^(?:android|androidx|java|javax|jdk|sun|kotlin|kotlinx|dalvik|libcore|com\.android|com\.google\.android|org\.apache|org\.json|org\.chromium)\./;

/** Whether a frame (`pkg.Class.method(File.kt:1)`, no `at `) runs the platform's code. */
export function isPlatformFrame(frame: string): boolean {
  return PLATFORM_FRAME.test(frame.trim());
}

/**
 * The frame where a trace's root cause happened, from its throwables' frames outermost first: in the
 * innermost throwable that has one, its first frame of the app's own code (`isOwn`), else its first
 * frame outside the platform (obfuscated code: `a.c.a(SourceFile:4)`); searched outward only when a
 * cause has no such frame (its app frames elided into `... N more`); else the innermost's first
 * frame; null without frames. Never a frame of an outer exception while the cause has its own.
 */
export function rootCauseFrame(
  throwables: readonly (readonly string[])[],
  isOwn: (frame: string) => boolean,
): string | null {
  for (let i = throwables.length - 1; i >= 0; i--) {
    const frames = throwables[i] ?? [];
    const own = frames.find(isOwn) ?? frames.find((f) => !isPlatformFrame(f));
    if (own !== undefined) {
      return own;
    }
  }
  for (let i = throwables.length - 1; i >= 0; i--) {
    const first = throwables[i]?.[0];
    if (first !== undefined) {
      return first;
    }
  }
  return null;
}
