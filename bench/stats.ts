/** Small helpers every benchmark uses to print figures the same way. */

/** The q-quantile (0..1) of a list of numbers. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) {
    return NaN;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[idx]!;
}

/** Median and p99 of samples in milliseconds, printed in microseconds. */
export function summarizeUs(samplesMs: readonly number[]): { median_us: number; p99_us: number; n: number } {
  return {
    median_us: Math.round(quantile(samplesMs, 0.5) * 1000),
    p99_us: Math.round(quantile(samplesMs, 0.99) * 1000),
    n: samplesMs.length,
  };
}

/** Prints a table of rows (objects with the same keys) to stdout. */
export function printTable(title: string, rows: Record<string, string | number>[]): void {
  const keys = Object.keys(rows[0] ?? {});
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  process.stdout.write(`\n${title}\n${line(keys)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const row of rows) {
    process.stdout.write(line(keys.map((k) => String(row[k]))) + '\n');
  }
}

/** Times `n` sequential awaits of `fn` (ms each), after `warmup` untimed ones. */
export async function timeLoop(n: number, fn: () => Promise<unknown>, warmup = 500): Promise<number[]> {
  for (let i = 0; i < Math.min(warmup, n); i++) {
    await fn();
  }
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return samples;
}
