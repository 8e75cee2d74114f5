import { quantileSorted, round2 } from './quantile.js';

/** One tool's latency figures over a run. */
export interface ToolFigures {
  count: number;
  errors: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
}

/** One call on the run's clock (performance.now(), ms): what the fault report classifies. */
export interface CallSpan {
  tool: string;
  /** The device the call named, or null. */
  serial: string | null;
  start: number;
  end: number;
  /** The error code when it failed, else null. */
  code: string | null;
  /** What a failed call answered (its first 300 characters). */
  text: string | null;
}

/**
 * Collects every tool call of a run: its latency per tool and, for failures, the error code.
 * Latencies are kept whole (a number per call), so percentiles are exact over the run.
 */
export class CallRecorder {
  private readonly samples = new Map<string, number[]>();
  private readonly toolErrors = new Map<string, number>();
  private readonly codes = new Map<string, number>();
  private total = 0;
  private failed = 0;
  /** Every call's span, when the run injects faults. */
  readonly spans: CallSpan[] | null;

  constructor(options: { spans?: boolean } = {}) {
    this.spans = options.spans === true ? [] : null;
  }

  /** Counts one call: its tool, how long it took, and the error code when it failed. */
  record(
    tool: string,
    ms: number,
    errorCode: string | null,
    serial: string | null = null,
    text: string | null = null,
  ): void {
    if (this.spans) {
      const end = performance.now();
      const said = errorCode === null ? null : (text ?? '').slice(0, 300);
      this.spans.push({ tool, serial, start: end - ms, end, code: errorCode, text: said });
    }
    let list = this.samples.get(tool);
    if (!list) {
      list = [];
      this.samples.set(tool, list);
    }
    list.push(ms);
    this.total++;
    if (errorCode !== null) {
      this.failed++;
      this.toolErrors.set(tool, (this.toolErrors.get(tool) ?? 0) + 1);
      this.codes.set(errorCode, (this.codes.get(errorCode) ?? 0) + 1);
    }
  }

  get calls(): number {
    return this.total;
  }

  get errors(): number {
    return this.failed;
  }

  /** Per-tool figures, by tool name. */
  tools(): Record<string, ToolFigures> {
    const out: Record<string, ToolFigures> = {};
    for (const [tool, list] of [...this.samples.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const sorted = [...list].sort((a, b) => a - b);
      out[tool] = {
        count: sorted.length,
        errors: this.toolErrors.get(tool) ?? 0,
        p50_ms: round2(quantileSorted(sorted, 0.5)),
        p95_ms: round2(quantileSorted(sorted, 0.95)),
        p99_ms: round2(quantileSorted(sorted, 0.99)),
        max_ms: round2(sorted[sorted.length - 1] ?? NaN),
      };
    }
    return out;
  }

  /** Failed calls by error code. */
  errorsByCode(): Record<string, number> {
    return Object.fromEntries([...this.codes.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
}
