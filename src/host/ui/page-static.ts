import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One file of the built page, held in memory (the whole bundle is a few dozen KiB). */
export interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
  /** Content-hashed names (assets/…) never change: cached for a year. */
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Where `npm run build` put the page (Vite writes web/ into dist/web): beside this module's
 * compiled folder when running from dist/, else the checkout's dist/web (tests that load src/).
 */
export function pageBuildDir(): string | null {
  const candidates = [
    fileURLToPath(new URL('../../web/', import.meta.url)),
    fileURLToPath(new URL('../../../dist/web/', import.meta.url)),
  ];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html'))) ?? null;
}

function walk(dir: string, base: string, out: Map<string, StaticFile>): void {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      walk(full, base, out);
      continue;
    }
    const rel = path.relative(base, full).split(path.sep).join('/');
    const body = readFileSync(full);
    out.set(rel, {
      body,
      type: TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      immutable: rel.startsWith('assets/'),
    });
  }
}

/** The built page's files by their path under /ui/ (`index.html`, `assets/index-….js`); empty when not built. */
export function loadPageFiles(dir: string | null = pageBuildDir()): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (dir !== null) {
    walk(dir, dir, files);
  }
  return files;
}
