/** One step of the demo: what it did, whether it worked, how long it took, and what it showed. */
export interface DemoStep {
  name: string;
  ok: boolean;
  ms: number;
  detail: string;
  /** The tool the step called, when it called one. */
  tool?: string;
}

/** Runs and records steps; the first failing step stops the walk (later steps depend on it). */
export class DemoRecorder {
  readonly steps: DemoStep[] = [];

  constructor(private readonly print: (step: DemoStep, index: number) => void) {}

  /** Runs one step. `work` returns the one-line detail to show; a throw fails the demo here. */
  async step(name: string, work: () => Promise<string>, tool?: string): Promise<void> {
    const started = performance.now();
    try {
      const detail = await work();
      this.record({
        name,
        ok: true,
        ms: Math.round(performance.now() - started),
        detail,
        ...(tool ? { tool } : {}),
      });
    } catch (err) {
      this.record({
        name,
        ok: false,
        ms: Math.round(performance.now() - started),
        detail: err instanceof Error ? err.message : String(err),
        ...(tool ? { tool } : {}),
      });
      throw new DemoFailed(name);
    }
  }

  private record(step: DemoStep): void {
    this.steps.push(step);
    this.print(step, this.steps.length);
  }
}

/** Thrown when a step failed; the demo then cleans up and exits 1. */
export class DemoFailed extends Error {
  constructor(readonly stepName: string) {
    super(`the demo stopped at: ${stepName}`);
  }
}
