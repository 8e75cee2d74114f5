/** The q-quantile (0..1) of `sorted` (ascending), nearest rank; NaN when empty. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) {
    return NaN;
  }
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[idx]!;
}

/** The median of a list of numbers (NaN when empty). */
export function median(values: readonly number[]): number {
  return quantileSorted(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** Rounds to two decimals, for figures in reports. */
export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
