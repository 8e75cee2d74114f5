import { MAX_LINE_CHARS, MAX_LOG_LINES } from './build-output-store.js';

/** The last lines of a build's output, bounded: a fixed-size ring. */
export class LogTail {
  private readonly ring: string[] = [];
  private start = 0;
  total = 0;

  constructor(private readonly max = MAX_LOG_LINES) {}

  push(line: string): void {
    const kept = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} […]` : line;
    this.total++;
    if (this.ring.length < this.max) {
      this.ring.push(kept);
      return;
    }
    this.ring[this.start] = kept;
    this.start = (this.start + 1) % this.max;
  }

  /** The last `n` lines, oldest first. */
  last(n: number): string[] {
    const all = [...this.ring.slice(this.start), ...this.ring.slice(0, this.start)];
    return all.slice(Math.max(0, all.length - n));
  }
}
