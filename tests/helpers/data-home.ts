import { afterEach, beforeEach } from 'vitest';
import { tempDir } from './paths.js';

/**
 * Gives every test of the file a fresh data directory as DROIDBUS_HOME (removed after it); returns
 * the current test's directory.
 */
export function useTempDataHome(prefix: string): () => string {
  let home: ReturnType<typeof tempDir> | undefined;
  beforeEach(() => {
    home = tempDir(prefix);
    process.env['DROIDBUS_HOME'] = home.dir;
  });
  afterEach(() => {
    delete process.env['DROIDBUS_HOME'];
    home?.remove();
  });
  return () => home!.dir;
}
