/**
 * The devices the host streams logcat from: `<data dir>/host-logcat-streams.json`, rewritten
 * (atomically, under the data lock) when a stream starts or is stopped on request. A host that was
 * killed leaves it behind, and the next host streams those devices again as they come online; a
 * host that quits removes it, so streams stopped by quitting stay stopped.
 */
import { readFileSync, rmSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from './atomic.js';
import { dataPath } from './data-dir.js';
import { withDataLock } from './lock.js';

export const LOGCAT_STREAMS_FILE = 'host-logcat-streams.json';
/** Devices remembered at most (more than any host serves). */
const MAX_SERIALS = 512;

const fileSchema = z.object({
  serials: z.array(z.string().min(1).max(255)).max(MAX_SERIALS),
  pid: z.number().int(),
  updated_at: z.string(),
});

/** The serials the last host streamed, or none when it quit (or the file is unreadable). */
export function readStreamedDevices(): string[] {
  try {
    const parsed = fileSchema.safeParse(JSON.parse(readFileSync(dataPath(LOGCAT_STREAMS_FILE), 'utf8')));
    return parsed.success ? parsed.data.serials : [];
  } catch {
    return [];
  }
}

/** Records the serials this host streams (sorted, so equal sets write equal files). */
export async function writeStreamedDevices(serials: Iterable<string>): Promise<void> {
  const list = [...serials].sort().slice(0, MAX_SERIALS);
  await withDataLock(() => {
    const body = { serials: list, pid: process.pid, updated_at: new Date().toISOString() };
    writeFileAtomic(dataPath(LOGCAT_STREAMS_FILE), `${JSON.stringify(body, null, 2)}\n`);
  });
}

/** Forgets the streamed devices (the host quit). */
export async function forgetStreamedDevices(): Promise<void> {
  await withDataLock(() => rmSync(dataPath(LOGCAT_STREAMS_FILE), { force: true }));
}
