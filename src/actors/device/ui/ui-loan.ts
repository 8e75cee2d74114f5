/**
 * A device's UI Automator lent to another client for a while (an app's connected tests, which need
 * the device's only UiAutomation): the cross-process UI Automator lock held with its purpose, so
 * every droidbus process's read is refused at once saying who has it, and droidbus's helper stopped.
 * One loan at a time; it ends when reclaimed, after its longest time, or when the device actor stops.
 */
import { BusError } from '../../../bus/errors.js';
import type { UiHelper } from './ui-helper-reader.js';
import { holdUiAutomatorLock } from './ui-lock.js';

/** How long a loan waits for a capture in flight before it is refused BUSY. */
const LEND_WAIT_MS = 30_000;

export class UiLoan {
  private lent: { purpose: string; release: () => Promise<void> } | null = null;

  constructor(private readonly helper: UiHelper) {}

  /** Lends the device's UI Automator for `purpose`; answers what became of the helper. */
  async lend(purpose: string, maxMs: number, signal: AbortSignal): ReturnType<UiHelper['yieldUiAutomation']> {
    if (this.lent !== null) {
      throw new BusError('BUSY', `device ${this.helper.serial} is already lent to ${this.lent.purpose}`);
    }
    const hold = await holdUiAutomatorLock(
      this.helper.serial,
      purpose,
      Date.now() + LEND_WAIT_MS,
      signal,
      maxMs,
    );
    try {
      const helper = await this.helper.yieldUiAutomation(signal);
      const lent = { purpose, release: hold.release };
      this.lent = lent;
      void hold.ended.then(() => {
        if (this.lent === lent) {
          this.lent = null;
        }
      });
      return helper;
    } catch (err) {
      await hold.release();
      throw err;
    }
  }

  /** Ends the loan of `purpose`; false when none was held. */
  async reclaim(purpose: string): Promise<boolean> {
    const lent = this.lent;
    if (lent === null || lent.purpose !== purpose) {
      return false;
    }
    this.lent = null;
    await lent.release();
    return true;
  }

  /** Ends any loan (the device actor stops). */
  async end(): Promise<void> {
    const lent = this.lent;
    this.lent = null;
    await lent?.release();
  }
}
