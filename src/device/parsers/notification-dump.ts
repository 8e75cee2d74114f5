/**
 * `dumpsys notification --noredact`: the records of the "Notification List" read into plain data.
 * Handles the shapes of Android 10–16: flags in hex (`flags=0x62`) or by name
 * (`flags=AUTO_CANCEL|LOCAL_ONLY`), `when=T` or `when=T/T`, extras as `String (text)`,
 * `SpannableString (text)` (values may span lines), `null`, or redacted as `String [length=N]`
 * when the device ignored `--noredact`.
 */
import type { NotificationEntry } from '../../bus/messages/extras.js';

const FLAG_ONGOING_EVENT = 0x2;
const FLAG_NO_CLEAR = 0x20;
const FLAG_BY_NAME: Readonly<Record<string, number>> = {
  SHOW_LIGHTS: 0x1,
  ONGOING_EVENT: 0x2,
  INSISTENT: 0x4,
  ONLY_ALERT_ONCE: 0x8,
  AUTO_CANCEL: 0x10,
  NO_CLEAR: 0x20,
  FOREGROUND_SERVICE: 0x40,
  HIGH_PRIORITY: 0x80,
  LOCAL_ONLY: 0x100,
  GROUP_SUMMARY: 0x200,
  AUTOGROUP_SUMMARY: 0x400,
  CAN_COLORIZE: 0x800,
  BUBBLE: 0x1000,
  NO_DISMISS: 0x2000,
  FSI_REQUESTED_BUT_DENIED: 0x4000,
  USER_INITIATED_JOB: 0x8000,
  LIFETIME_EXTENDED_BY_DIRECT_REPLY: 0x10000,
  SILENT: 0x20000,
};
const IMPORTANCE_BY_NAME: Readonly<Record<string, number>> = {
  NONE: 0,
  MIN: 1,
  LOW: 2,
  DEFAULT: 3,
  HIGH: 4,
  MAX: 5,
};

const RECORD_HEAD = /^(\s*)NotificationRecord\(0x[0-9a-fA-F]+:?\s+pkg=(\S+)(.*)$/;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** `0x62`, `98`, `ONGOING_EVENT|NO_CLEAR`, or `0` → the flag bits. */
export function parseNotificationFlags(value: string): number {
  const v = value.trim();
  if (/^0x[0-9a-fA-F]+$/.test(v)) {
    return parseInt(v.slice(2), 16);
  }
  if (/^\d+$/.test(v)) {
    return Number(v);
  }
  return v
    .split('|')
    .map((name) => FLAG_BY_NAME[name.trim()] ?? 0)
    .reduce((a, b) => a | b, 0);
}

interface ExtraValue {
  /** The text, or null for `null` and redacted values. */
  value: string | null;
  redacted: boolean;
}

/** `String (text)`, `SpannableString (text)`, `String [length=N]`, or `null`. */
function decodeExtra(raw: string): ExtraValue {
  if (raw === 'null') {
    return { value: null, redacted: false };
  }
  const redacted = /^[A-Za-z][\w.$]* \[length=\d+\]$/.exec(raw);
  if (redacted) {
    return { value: null, redacted: true };
  }
  const typed = /^[A-Za-z][\w.$]* \(([\s\S]*)\)$/.exec(raw);
  if (typed) {
    return { value: typed[1]!, redacted: false };
  }
  return { value: raw, redacted: false };
}

/** Reads the `extras={ … }` block that starts after `start`; values may continue on later lines. */
function readExtras(lines: string[], start: number, closeIndent: number): Map<string, string> {
  const out = new Map<string, string>();
  let entryIndent = -1;
  let current: string | null = null;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!;
    const indent = indentOf(line);
    if (line.trim() === '}' && indent <= closeIndent) {
      break;
    }
    const entry = /^(\s*)([A-Za-z_][\w.$:-]*)=(.*)$/.exec(line);
    if (entry && (entryIndent < 0 || entry[1]!.length === entryIndent)) {
      entryIndent = entry[1]!.length;
      current = entry[2]!;
      out.set(current, entry[3]!);
    } else if (current !== null) {
      // A value with line breaks goes on: `android.text=String (first\nsecond)`.
      out.set(current, `${out.get(current)!}\n${line}`);
    }
  }
  return out;
}

/** The lines of the "Notification List" section, or every line when the dump has no such header. */
function listSection(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const head = lines.findIndex((l) => /^\s*Notification List:\s*$/.test(l));
  if (head < 0) {
    return lines;
  }
  const headIndent = indentOf(lines[head]!);
  const out: string[] = [];
  for (let i = head + 1; i < lines.length; i++) {
    const line = lines[i]!;
    // The next part of the dump (`  mSoundNotificationKey=…`, `  Snoozed notifications:`) ends the
    // list; other lines at the left edge are the continuation of a text with line breaks.
    if (indentOf(line) <= headIndent && /^\s*(m[A-Z]\w*=|[A-Za-z][\w .'()-]*:\s*$)/.test(line)) {
      break;
    }
    out.push(line);
  }
  return out;
}

function intOrNull(v: string | undefined): number | null {
  if (v === undefined) {
    return null;
  }
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

function parseRecord(lines: string[]): NotificationEntry | null {
  const head = RECORD_HEAD.exec(lines[0]!);
  if (!head) {
    return null;
  }
  const baseIndent = head[1]!.length;
  const pkg = head[2]!;
  const rest = head[3]!;
  const fieldIndent = lines.slice(1).find((l) => l.trim() !== '')
    ? indentOf(lines.slice(1).find((l) => l.trim() !== '')!)
    : baseIndent + 2;
  const field = (name: string): string | undefined => {
    for (const line of lines.slice(1)) {
      if (indentOf(line) === fieldIndent && line.trimStart().startsWith(`${name}=`)) {
        return line.trimStart().slice(name.length + 1);
      }
    }
    return undefined;
  };
  const anywhere = (re: RegExp): RegExpExecArray | null => {
    for (const line of lines.slice(1)) {
      const m = re.exec(line);
      if (m) {
        return m;
      }
    }
    return null;
  };

  const key = field('key') ?? /\bkey=(.+?): Notification\(/.exec(rest)?.[1] ?? null;
  if (key === null) {
    return null;
  }
  const notificationPart = /: Notification\((.*)\)\)?\s*$/.exec(rest)?.[1] ?? '';
  const user = /\buser=UserHandle\{(-?\d+)\}/.exec(rest)?.[1];
  const id = /\bid=(-?\d+)/.exec(rest)?.[1];
  const tag = /\btag=(.*?) (?:importance|score|key)=/.exec(rest)?.[1] ?? null;
  const importanceHead = /\bimportance=(-?\d+)/.exec(rest)?.[1];
  const importanceName = field('mImportance');

  const flagsText = field('flags') ?? /\bflags=(\S+)/.exec(notificationPart)?.[1] ?? '0';
  const flags = parseNotificationFlags(flagsText);
  const ongoing = (flags & FLAG_ONGOING_EVENT) !== 0;
  const clearable = (flags & (FLAG_ONGOING_EVENT | FLAG_NO_CLEAR)) === 0;

  const channel =
    anywhere(/effectiveNotificationChannel=NotificationChannel\{mId='(.*?)', /)?.[1] ??
    /\bchannel=(.*?) (?:shortcut|pri|contentView)=/.exec(notificationPart)?.[1] ??
    null;
  const category = /\bcategory=(\S+)/.exec(notificationPart)?.[1] ?? null;
  const whenRaw = anywhere(/^\s*when=(-?\d+)(?:\/-?\d+)?\s*$/)?.[1];
  const created = field('mCreationTimeMs');

  const actions: string[] = [];
  const actionsAt = lines.findIndex((l) => /^\s*actions=\{\s*$/.test(l));
  if (actionsAt >= 0) {
    for (let i = actionsAt + 1; i < lines.length; i++) {
      const m = /^\s*\[\d+\] "(.*)" -> /.exec(lines[i]!);
      if (m) {
        actions.push(m[1]!);
      } else if (lines[i]!.trim() === '}') {
        break;
      }
    }
  }

  const extrasAt = lines.findIndex((l) => /^\s*extras=\{\s*$/.test(l));
  const extras =
    extrasAt >= 0 ? readExtras(lines, extrasAt + 1, indentOf(lines[extrasAt]!)) : new Map<string, string>();
  let redacted = false;
  const text = (name: string): string | null => {
    const raw = extras.get(name);
    if (raw === undefined) {
      return null;
    }
    const decoded = decodeExtra(raw);
    redacted ||= decoded.redacted;
    return decoded.value;
  };
  const title = text('android.title') ?? text('android.title.big');
  const body = text('android.text');
  const subText = text('android.subText');
  const bigText = text('android.bigText');

  const importance =
    importanceHead !== undefined
      ? Number(importanceHead)
      : importanceName !== undefined
        ? (IMPORTANCE_BY_NAME[importanceName] ?? null)
        : null;
  return {
    key,
    package: pkg,
    id: intOrNull(id),
    tag: tag === null || tag === 'null' ? null : tag,
    user: intOrNull(user),
    title,
    text: body,
    sub_text: subText,
    big_text: bigText,
    post_time: intOrNull(created) ?? intOrNull(whenRaw),
    when: intOrNull(whenRaw),
    ongoing,
    clearable,
    channel,
    importance,
    category,
    actions,
    redacted,
  };
}

/** Every notification of the dump's "Notification List", in the dump's (ranking) order. */
export function parseNotificationDump(text: string): NotificationEntry[] {
  const lines = listSection(text);
  const out: NotificationEntry[] = [];
  let start = -1;
  const flush = (end: number): void => {
    if (start >= 0) {
      const record = parseRecord(lines.slice(start, end));
      if (record) {
        out.push(record);
      }
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (RECORD_HEAD.test(line)) {
      flush(i);
      start = i;
    }
  }
  flush(lines.length);
  return out;
}
