/**
 * Evidence: none — the screen's state; what each part shows is cited where it is drawn.
 */
import { LAUNCHER_ACTIVITY, LAUNCHER_PACKAGE } from '../packages.js';
import { hexId } from '../ids.js';
import { LockScreen } from '../lock-screen.js';
import { newActivityState, type ActivityRecord, type Task } from './ui-model.js';
import type { ParsedHierarchy } from './uiautomator-xml.js';
import type { ViewNode } from './view.js';

/** A recorded screen made current with `sim screen load`. */
export interface LoadedScreen {
  xml: string;
  parsed: ParsedHierarchy;
  /**
   * The activity in front when it was recorded (`PKG/CLS`), from the same recording's window dump;
   * absent, the window lists name it after the dump's package.
   */
  activity?: string;
  /**
   * `--on-tap`: the screens that follow, in order — a tap inside the first one's bounds shows it
   * (with the rest still to come); a tap elsewhere changes nothing, as on a static recording.
   */
  onTap?: { bounds: [number, number, number, number]; screen: LoadedScreen }[];
}

/** The focused window's `PKG/CLS` of a loaded screen. */
export function loadedActivity(loaded: LoadedScreen): string {
  return loaded.activity ?? `${loaded.parsed.pkg}/${loaded.parsed.pkg}.RecordedActivity`;
}

/** A dialog over the current screen (`sim dialog`): its own window. */
export interface Dialog {
  title: string;
  message: string;
  buttons: string[];
  pkg: string;
}

/**
 * The window stack of a device: tasks (the launcher's task at the bottom until HOME raises it),
 * the keyboard, a loaded recorded screen and a dialog.
 */
export class UiState {
  readonly tasks: Task[];
  imeShown = false;
  /** `sim screen busy on`: the screen keeps redrawing, so UI Automator never sees it idle. */
  busy = false;
  /** The lock screen; the keyguard comes up when the screen goes off. */
  readonly lock = new LockScreen();
  private on = true;
  loaded: LoadedScreen | null = null;
  /**
   * A real screen's pixels `screencap` answers with (`sim screencap load`): the PNG as `-p` writes
   * it and the RGBA rows raw `screencap` writes, instead of the drawn model.
   */
  capture: { png: Uint8Array; rgba: Uint8Array; width: number; height: number } | null = null;
  dialog: Dialog | null = null;
  /** The notification shade is pulled down (`cmd statusbar expand-notifications`). */
  shadeOpen = false;
  /** A toast on screen (`sim toast`) until `until` (epoch ms): a window of its own, never in a dump. */
  toast: { text: string; pkg: string; until: number } | null = null;
  private nextTaskId = 10;

  get screenOn(): boolean {
    return this.on;
  }

  set screenOn(on: boolean) {
    if (!on) {
      this.lock.screenOff();
    }
    this.on = on;
  }

  constructor(serial: string) {
    this.tasks = [
      {
        id: 1,
        pkg: LAUNCHER_PACKAGE,
        activities: [
          {
            pkg: LAUNCHER_PACKAGE,
            cls: LAUNCHER_ACTIVITY,
            hash: hexId(serial + 'launcher'),
            state: newActivityState(),
          },
        ],
      },
    ];
  }

  top(): ActivityRecord {
    const task = this.tasks[this.tasks.length - 1] as Task;
    return task.activities[task.activities.length - 1] as ActivityRecord;
  }

  topTask(): Task {
    return this.tasks[this.tasks.length - 1] as Task;
  }

  taskOf(pkg: string): Task | undefined {
    return this.tasks.find((t) => t.pkg === pkg);
  }

  /** Moves a task to the top. */
  raise(task: Task): void {
    const idx = this.tasks.indexOf(task);
    if (idx >= 0 && idx !== this.tasks.length - 1) {
      this.tasks.splice(idx, 1);
      this.tasks.push(task);
    }
  }

  newTask(pkg: string): Task {
    const task: Task = { id: this.nextTaskId++, pkg, activities: [] };
    this.tasks.push(task);
    return task;
  }

  /** Removes every task of a package (force-stop, crash, uninstall). True when the top changed. */
  removePackage(pkg: string): boolean {
    if (pkg === LAUNCHER_PACKAGE) {
      return false;
    }
    const topBefore = this.top();
    for (let i = this.tasks.length - 1; i >= 0; i--) {
      if ((this.tasks[i] as Task).pkg === pkg) {
        this.tasks.splice(i, 1);
      }
    }
    const changed = this.top() !== topBefore;
    if (changed) {
      this.imeShown = false;
    }
    return changed;
  }

  /** HOME: the launcher's task comes to the top. */
  home(): void {
    this.imeShown = false;
    this.shadeOpen = false;
    this.loaded = null;
    const launcher = this.tasks.find((t) => t.pkg === LAUNCHER_PACKAGE);
    if (launcher !== undefined) {
      this.raise(launcher);
    }
  }

  /** BACK: hides the keyboard, else closes a dialog, else finishes the top activity. Returns what happened. */
  back(): 'ime' | 'shade' | 'dialog' | 'finished' | 'none' {
    if (this.shadeOpen) {
      this.shadeOpen = false;
      return 'shade';
    }
    if (this.imeShown) {
      this.imeShown = false;
      return 'ime';
    }
    if (this.dialog !== null) {
      this.dialog = null;
      return 'dialog';
    }
    const task = this.topTask();
    if (task.pkg === LAUNCHER_PACKAGE) {
      return 'none';
    }
    task.activities.pop();
    if (task.activities.length === 0) {
      this.tasks.pop();
    }
    return 'finished';
  }

  /** The node of the dialog window, if one shows. */
  dialogTree(width: number, height: number, density: number): ViewNode | null {
    if (this.dialog === null) {
      return null;
    }
    const dp = (v: number): number => Math.round((v * density) / 160);
    const d = this.dialog;
    const left = dp(24);
    const right = width - dp(24);
    const top = Math.round(height / 2 - dp(110));
    const bottom = Math.round(height / 2 + dp(110));
    const pkg = d.pkg;
    const children: ViewNode[] = [
      {
        cls: 'android.widget.TextView',
        pkg,
        id: 'android:id/alertTitle',
        text: d.title,
        desc: '',
        bounds: [left + dp(24), top + dp(24), right - dp(24), top + dp(56)],
        flags: 8,
        children: [],
      },
      {
        cls: 'android.widget.TextView',
        pkg,
        id: 'android:id/message',
        text: d.message,
        desc: '',
        bounds: [left + dp(24), top + dp(64), right - dp(24), top + dp(128)],
        flags: 8,
        children: [],
      },
    ];
    const bw = Math.floor((right - left - dp(48)) / Math.max(1, d.buttons.length));
    d.buttons.forEach((b, i) => {
      const bl = left + dp(24) + i * bw;
      children.push({
        cls: 'android.widget.Button',
        pkg,
        id: `android:id/button${i + 1}`,
        text: b,
        desc: '',
        bounds: [bl, bottom - dp(64), bl + bw - dp(8), bottom - dp(16)],
        flags: 8 | 4 | 16,
        children: [],
        action: `dialog:${b}`,
      });
    });
    return {
      cls: 'android.widget.FrameLayout',
      pkg,
      id: '',
      text: '',
      desc: '',
      bounds: [left, top, right, bottom],
      flags: 8,
      children,
    };
  }
}
