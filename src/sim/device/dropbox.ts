/**
 * The device's DropBox of error reports, as `dumpsys dropbox` prints it: every entry, or with
 * `--print [TAG]` each entry of that tag whole — a line of forty `=`, `<yyyy-MM-dd HH:mm:ss> TAG
 * (text, N bytes)`, the text, a blank line — and `(No entries found.)` when none matches.
 *
 * Evidence: AOSP services/core/java/com/android/server/DropBoxManagerService.java (`dump`),
 * aosp-mirror/platform_frameworks_base @ 020de0285422eba50289a264d2125e12c15145b2; the entries an
 * ANR leaves come from ActivityManagerService.addErrorToDropBox (data_app_anr / system_app_anr).
 */

export interface DropBoxEntry {
  tag: string;
  /** Epoch ms. */
  at: number;
  text: string;
}

/** Entries kept; DropBoxManagerService keeps 1,000 files by default (fewer here: a test device). */
const MAX_ENTRIES = 200;

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/** `yyyy-MM-dd HH:mm:ss`, in the device's time zone (UTC here). */
export function dropboxTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** What ActivityManagerService.addErrorToDropBox writes of an ANR. */
export interface AnrReportParts {
  uid: number;
  /** Its headers after `Process:` (`PID: …`, `Subject: …`, …), in AMS's order. */
  headers: readonly string[];
  process: string;
  /** The report (load, CPU usage). */
  report: readonly string[];
  /** The traces ART wrote for it (empty when none were dumped). */
  traces: string;
}

export class DropBox {
  private readonly entries: DropBoxEntry[] = [];

  /** `enabled(tag)`: whether the device keeps entries of the tag (its `dropbox:TAG` setting). */
  constructor(private readonly enabled: (tag: string) => boolean = () => true) {}

  add(tag: string, at: number, text: string): void {
    if (!this.enabled(tag)) {
      return;
    }
    this.entries.push({ tag, at, text });
    if (this.entries.length > MAX_ENTRIES) {
      this.entries.shift();
    }
  }

  /**
   * An ANR's report under its tag — `data_app_anr` for an app's uid, `system_app_anr` below it — as
   * AMS writes it: `Process:` and the headers, a blank line, the report, a blank line, the traces.
   */
  addAnr(at: number, r: AnrReportParts): void {
    this.add(
      r.uid >= 10_000 ? 'data_app_anr' : 'system_app_anr',
      at,
      [`Process: ${r.process}`, ...r.headers, '', ...r.report, '', r.traces, ''].join('\n'),
    );
  }

  /** `dumpsys dropbox [--print] [TAG]`. */
  dump(args: readonly string[]): string {
    const print = args.includes('--print');
    const tag = args.find((a) => !a.startsWith('-'));
    const found = this.entries.filter((e) => tag === undefined || e.tag === tag);
    let out = `Drop box contents: ${this.entries.length} entries\nMax entries: 1000\n`;
    if (tag !== undefined) {
      out += `Searching for: ${tag}\n`;
    }
    out += '\n';
    for (const e of found) {
      const bytes = Buffer.byteLength(e.text);
      if (print) {
        out += '========================================\n';
      }
      out += `${dropboxTime(e.at)} ${e.tag} (text, ${bytes} bytes)\n`;
      if (print) {
        out += e.text.endsWith('\n') ? e.text : `${e.text}\n`;
        out += '\n';
      } else {
        const head = e.text.slice(0, 70);
        out += `    ${head.trim().replace(/\n/g, '/')}${head.length === 70 ? ' ...' : ''}\n`;
      }
    }
    if (found.length === 0) {
      out += '(No entries found.)\n';
    }
    return out;
  }
}
