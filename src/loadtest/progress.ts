/** What the progress line shows. */
export interface ProgressState {
  elapsedS: number;
  durationS: number;
  calls: number;
  errors: number;
}

/**
 * Progress of a run on stderr: a bar redrawn in place on a terminal, a plain line every few
 * seconds otherwise (logs, CI). stdout stays for the report.
 */
export class ProgressBar {
  private lastPlain = -Infinity;
  private drawn = false;

  constructor(
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly label = 'loadtest',
  ) {}

  private get tty(): boolean {
    return this.out.isTTY === true;
  }

  update(state: ProgressState): void {
    const fraction = Math.min(1, state.durationS > 0 ? state.elapsedS / state.durationS : 1);
    const rate = state.elapsedS > 0 ? state.calls / state.elapsedS : 0;
    const figures = `${Math.floor(state.elapsedS)}/${state.durationS} s  ${state.calls} calls (${rate.toFixed(1)}/s)  ${state.errors} errors`;
    if (this.tty) {
      const width = 24;
      const filled = Math.round(fraction * width);
      this.out.write(`\r${this.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${figures}\x1b[K`);
      this.drawn = true;
      return;
    }
    const every = Math.max(5, Math.round(state.durationS / 20));
    if (state.elapsedS - this.lastPlain >= every) {
      this.lastPlain = state.elapsedS;
      this.out.write(`${this.label}: ${figures}\n`);
    }
  }

  /** A line of its own (a phase: starting devices, measuring, stopping). */
  note(line: string): void {
    this.finish();
    this.out.write(`${this.label}: ${line}\n`);
  }

  /** Ends the bar's line. */
  finish(): void {
    if (this.drawn) {
      this.out.write('\n');
      this.drawn = false;
    }
  }
}
