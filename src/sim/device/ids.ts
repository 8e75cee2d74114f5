/**
 * Evidence: none — stable hashes and a seeded generator so runs repeat; what the numbers look like is
 * cited where they are printed.
 */
import { createHash } from 'node:crypto';

/** FNV-1a: a stable 32-bit hash of a string (device-specific but reproducible numbers). */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A small fast PRNG (xorshift32), seeded per device so runs are reproducible. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state / 0x100000000;
  }
  /** Uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
}

/** The 22-character base64url token of an install directory (`~~TOKEN==`), derived from a seed. */
export function installToken(seed: string): string {
  return createHash('sha256').update(seed).digest('base64url').slice(0, 22);
}

/** A lowercase hex id like the identity hashes dumpsys prints (`8f1e2d3`). */
export function hexId(seed: string): string {
  return hashString(seed).toString(16).padStart(7, '0').slice(-7);
}
