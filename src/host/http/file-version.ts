import { statSync } from 'node:fs';

/**
 * A key that changes whenever the file is replaced or written: droidbus writes files by rename
 * (a new inode), and size and mtime cover editors that write in place. Throws when it is missing.
 */
export function fileVersionKey(file: string): string {
  const st = statSync(file, { bigint: true });
  return `${st.ino}:${st.size}:${st.mtimeNs}`;
}
