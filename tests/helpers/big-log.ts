/**
 * `n` threadtime lines of about 1 KB each, for the logcat cost tests and bench/logcat-fairness:
 * ordinary request lines (tag Net), and — every `every`-th line when given — a run of letters
 * (tag Prose), where a class repetition keeps every RE2 thread alive on every byte.
 */
export function bigLog(n: number, prose: { every: number } | null = null): string {
  const words = 'GET /api/items?page=4 finished with status 200 in 37 ms; cache hit ratio 0.82; ';
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = String(i % 60).padStart(2, '0');
    const ms = String(i % 1000).padStart(3, '0');
    const letters = prose !== null && i % prose.every === 0;
    const body = letters
      ? 'Ablaufverfolgung'.repeat(63).slice(0, 1000)
      : `${i} ${words.repeat(13)}`.slice(0, 1000);
    lines.push(`12-06 18:00:${s}.${ms}  4242  4251 I ${letters ? 'Prose' : 'Net  '}   : ${body}`);
  }
  return lines.join('\n') + '\n';
}
