/**
 * Personal data out of a recorded command's bytes, before a profile is written: a profile is meant
 * to be attached to a bug report. Everything else stays byte for byte: the text is read as Latin-1
 * (one char per byte, so UTF-8 and invalid bytes survive untouched) or, for UTF-16 output, as
 * UTF-16, and every replacement is plain ASCII in the same encoding.
 */
import type { ProfileRedaction } from './profile-format.js';
import { escapeRegExp } from '../util/escape-regexp.js';

interface Rule {
  what: string;
  why: string;
  /** Only for these reads (catalogue names); every read when absent. */
  reads?: readonly string[];
  pattern: RegExp;
  replace: (match: string, ...groups: string[]) => string;
}

/** The kinds of identifier a recording learns and then removes by value wherever it is printed. */
type IdentifierKind = 'serial number' | 'Android ID' | 'IMEI' | 'Wi-Fi network name' | 'phone number';

/** What each kind is replaced by, and why. */
const IDENTIFIER_KINDS: Record<IdentifierKind, { stand_in: string; why: string }> = {
  'serial number': { stand_in: 'SERIAL-REDACTED', why: 'it identifies this device' },
  'Android ID': { stand_in: 'ANDROID-ID-REDACTED', why: 'it identifies this device to every app' },
  IMEI: { stand_in: 'IMEI-REDACTED', why: 'it identifies this phone on every network' },
  'Wi-Fi network name': {
    stand_in: 'WIFI-REDACTED',
    why: 'a network name often names its owner or where they live',
  },
  'phone number': { stand_in: '+15550100', why: 'a phone number names a person' },
};

/**
 * What one recording shares across its commands: addresses replaced by RFC 5737 / RFC 3849
 * documentation addresses, one per address seen, and the device's identifiers learned from any of
 * its outputs — properties, `settings get secure android_id`, the saved Wi-Fi networks, a number or
 * SSID printed with its name — removed by value wherever else they are printed, whatever the text
 * around them (an app logging `android_id 3c9b…`).
 */
class AddressBook {
  private readonly v4 = new Map<string, string>();
  private readonly v6 = new Map<string, string>();
  readonly identifiers = new Map<string, IdentifierKind>();
  learn(value: string, kind: IdentifierKind): void {
    const v = value.trim();
    // Too short or placeholder values would take ordinary words and zeros with them.
    if (v.length < 4 || /^(?:unknown|0+|null|none|redacted|<unknown ssid>|[A-Z-]+-REDACTED)$/i.test(v)) {
      return;
    }
    if (!this.identifiers.has(v)) {
      this.identifiers.set(v, kind);
    }
  }
  ipv4(a: string): string {
    let r = this.v4.get(a);
    if (r === undefined) {
      r = `192.0.2.${(this.v4.size % 254) + 1}`;
      this.v4.set(a, r);
    }
    return r;
  }
  ipv6(a: string): string {
    let r = this.v6.get(a);
    if (r === undefined) {
      r = `2001:db8::${(this.v6.size + 1).toString(16)}`;
      this.v6.set(a, r);
    }
    return r;
  }
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const KEEP_V4 = /^(?:127\.|0\.0\.0\.0$|255\.|192\.0\.2\.)/;
/** Android reports this MAC to apps that may not see the real one; a redacted MAC reads the same. */
const PLACEHOLDER_MAC = '02:00:00:00:00:00';

/** The notification fields AOSP's own redaction (`dumpsys notification` without --noredact) hides. */
const NOTIFICATION_TEXT_KEYS =
  'android\\.(?:title|title\\.big|text|bigText|subText|summaryText|infoText|conversationTitle|selfDisplayName|textLines|messages|people\\.list)';

/** Properties whose value identifies the device or its SIM (`[ro.serialno]: [R58M123]`). */
const IDENTIFYING_PROPERTY =
  /^\[([\w.]*(?:serial|serialno|imei|meid|iccid|android_id)[\w.]*)\]: \[([^\]]{4,})\]/gim;
/** An SSID printed with its name (WifiInfo, WifiConfiguration, apps' logs): `SSID: "home"`, `ssid=home`. */
const NAMED_SSID = /(?<![A-Za-z])SSID["']?\s*[:=]\s*("?)(?!<unknown ssid>|redacted)([^",\r\n}]{1,32})\1/gi;
/** An Android ID printed with its name, whatever separates them (`android_id 3c9b6c2a5bdcc4a7`). */
const NAMED_ANDROID_ID = /\b(?:android_id|androidId|ANDROID_ID)["']?[\s=:]+["']?([0-9a-fA-F]{16})\b/g;
/**
 * An international phone number, written with or without separators (`+14155550199`,
 * `+1 415 555 0199`, `+44 (20) 7946-0958`); its digits are checked to be 8 to 15 (E.164).
 */
const PHONE = /(?<![\w+.:/-])\+[1-9]\d{0,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}(?![\d.])/g;
const isPhone = (m: string): boolean => {
  const digits = m.replace(/\D/g, '').length;
  return digits >= 8 && digits <= 15;
};

/** The SSIDs of `cmd wifi list-networks` (AOSP WifiShellCommand: `%-12d %-32s %-4s` under its header). */
export function savedNetworkSsids(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (!/^Network Id\s+SSID\s+Security type/.test(lines[0] ?? '')) {
    return [];
  }
  return lines
    .slice(1)
    .map((l) => /^\d+\s+(.+?)\s+\S+\s*$/.exec(l)?.[1]?.replace(/^"(.*)"$/, '$1'))
    .filter((ssid): ssid is string => ssid !== undefined && ssid !== '');
}

/** Reads run only to learn identifiers (never written into the profile), by read name. */
export const IDENTITY_READS: readonly { read: string; argv: readonly string[] }[] = [
  { read: 'identity-android-id', argv: ['settings', 'get', 'secure', 'android_id'] },
  { read: 'identity-wifi-networks', argv: ['cmd', 'wifi', 'list-networks'] },
];

/** Learns the identifiers one output states (serial numbers, IMEI, Android ID, SSIDs, phone numbers), to remove them everywhere. */
export function learnIdentifiers(book: AddressBook, bytes: Uint8Array, read: string | null = null): void {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  for (const m of text.matchAll(IDENTIFYING_PROPERTY)) {
    const key = m[1]!.toLowerCase();
    book.learn(
      m[2]!,
      /imei|meid|iccid/.test(key) ? 'IMEI' : key.includes('android_id') ? 'Android ID' : 'serial number',
    );
  }
  if (read === 'identity-android-id' && /^[0-9a-f]{16}\s*$/i.test(text)) {
    book.learn(text, 'Android ID');
  }
  if (read === 'identity-wifi-networks') {
    savedNetworkSsids(text).forEach((ssid) => book.learn(ssid, 'Wi-Fi network name'));
  }
  for (const m of text.matchAll(NAMED_SSID)) {
    book.learn(m[2]!, 'Wi-Fi network name');
  }
  for (const m of text.matchAll(NAMED_ANDROID_ID)) {
    book.learn(m[1]!, 'Android ID');
  }
  for (const m of text.matchAll(PHONE)) {
    if (isPhone(m[0])) {
      book.learn(m[0].replace(/[^\d+]/g, ''), 'phone number');
    }
  }
}

/**
 * A learned number's pattern: its digits with any separators between them, with or without its
 * country code (1 to 3 digits) and a trunk 0 — `+14155550199` also matches `(415) 555-0199`.
 */
function phonePattern(number: string): RegExp {
  const digits = number.replace(/\D/g, '');
  const spaced = (d: string): string => [...d].join('[\\s().-]*');
  const forms = [`\\+?${spaced(digits)}`];
  for (let cc = 1; cc <= 3 && digits.length - cc >= 7; cc++) {
    forms.push(`\\(?0?${spaced(digits.slice(cc))}`);
  }
  return new RegExp(`(?<![\\d+])(?:${forms.join('|')})(?!\\d)`, 'g');
}

/** Secrets that show up in apps' logs: tokens, cookies, keys; and what names a person: SSIDs, phone numbers. */
const LOGGED_SECRETS: Rule[] = [
  {
    what: 'access token',
    why: 'a bearer or OAuth token grants what its owner may do',
    pattern:
      /\bya29\.[\w-]{10,}|\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}|\b(?:Bearer|Basic)\s+[A-Za-z0-9._~+/-]{12,}=*|\b(?:access_token|refresh_token|id_token|api_key|apikey|client_secret)(["']?\s*[=:]\s*["']?)[^\s"'&,;}]{4,}/gi,
    replace: (m, sep) => {
      const key = /^[A-Za-z_]+/.exec(m)?.[0] ?? '';
      return sep !== '' && /token|key|secret|pass/i.test(key) ? `${key}${sep}redacted` : 'TOKEN-REDACTED';
    },
  },
  {
    what: 'cookie',
    why: 'a session cookie signs its owner in',
    pattern: /\b((?:Set-)?Cookie:\s*)[^\r\n]+/gi,
    replace: (_m, key) => `${key}redacted`,
  },
  {
    what: 'Wi-Fi network name',
    why: 'a network name often names its owner or where they live',
    pattern: /((?<![A-Za-z])SSID["']?\s*[:=]\s*)("?)(?!<unknown ssid>|redacted)([^",\r\n}]{1,32})\2/g,
    replace: (_m, key, quote) => `${key}${quote}redacted${quote}`,
  },
  {
    what: 'phone number',
    why: 'a phone number names a person',
    pattern: /\btel:[+\d-]{7,}/g,
    replace: () => 'tel:+15550100',
  },
  {
    what: 'phone number',
    why: 'a phone number names a person',
    pattern: PHONE,
    replace: (m) => (isPhone(m) ? '+15550100' : m),
  },
  {
    what: 'Android ID',
    why: 'it identifies this device to every app',
    pattern: /(\b(?:android_id|androidId|ANDROID_ID)["']?[\s=:]+["']?)([0-9a-fA-F]{16})\b/g,
    replace: (_m, key) => `${key}ANDROID-ID-REDACTED`,
  },
];

function rules(serial: string | null, book: AddressBook, keepNotifications: boolean): Rule[] {
  const list: Rule[] = [];
  // Longest first: a value that contains another is replaced whole.
  for (const [id, kind] of [...book.identifiers].sort((a, b) => b[0].length - a[0].length)) {
    const { stand_in, why } = IDENTIFIER_KINDS[kind];
    list.push({
      what: kind,
      why,
      pattern:
        kind === 'phone number'
          ? phonePattern(id)
          : kind === 'Wi-Fi network name'
            ? // A network name is words: not inside a longer word.
              new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(id)}(?![A-Za-z0-9])`, 'g')
            : new RegExp(escapeRegExp(id), 'g'),
      replace: () => stand_in,
    });
  }
  list.push(...LOGGED_SECRETS);
  if (serial !== null && serial.length >= 4) {
    list.push({
      what: 'serial number',
      why: 'it identifies this device',
      pattern: new RegExp(escapeRegExp(serial), 'g'),
      replace: () => 'SERIAL-REDACTED',
    });
  }
  list.push(
    {
      what: 'serial number',
      why: 'it identifies this device',
      pattern: /(\[[\w.]*(?:serial|serialno|imei|meid)[\w.]*\]: \[)([^\]]+)(\])/gi,
      replace: (_m, a, _v, b) => `${a}SERIAL-REDACTED${b}`,
    },
    {
      what: 'device name',
      why: 'people name their phone after themselves',
      pattern:
        /(\[(?:persist\.sys\.device_name|net\.hostname|ro\.boot\.device_name|bluetooth\.device\.name)\]: \[)([^\]]+)(\])/g,
      replace: (_m, a, _v, b) => `${a}redacted${b}`,
    },
    {
      what: 'e-mail address',
      why: 'account names and addresses are personal',
      pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g,
      replace: () => 'user@example.com',
    },
    {
      what: 'account name',
      why: 'account names are personal',
      pattern: /(Account \{name=)([^,}]+)/g,
      replace: (_m, a, v) => (v === 'user@example.com' ? `${a}${v}` : `${a}redacted`),
    },
    {
      what: 'MAC address',
      why: 'it identifies this device on every network',
      pattern: /(?<![0-9A-Fa-f:])(?:[0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}(?![0-9A-Fa-f:])/g,
      replace: (m) => (/^(?:00:){5}00$|^02:00:00:00:00:00$/.test(m) ? m : PLACEHOLDER_MAC),
    },
    {
      what: 'IP address',
      why: 'it locates this device and its network',
      pattern: new RegExp(`(?<![\\d.])(?:${OCTET}\\.){3}${OCTET}(?![\\d.])`, 'g'),
      replace: (m) => (KEEP_V4.test(m) ? m : book.ipv4(m)),
    },
    {
      what: 'IP address',
      why: 'it locates this device and its network',
      pattern: /(?<![\w:])(?:fe80|fd[0-9a-f]{2}|2[0-9a-f]{3})(?::[0-9a-f]{0,4}){2,7}(?![\w:])/gi,
      replace: (m) => (m.toLowerCase().startsWith('2001:db8:') ? m : book.ipv6(m)),
    },
  );
  if (!keepNotifications) {
    list.push(
      {
        what: 'notification text',
        why: 'notifications show messages, names and codes (--keep-notifications keeps them)',
        reads: ['dumpsys-notification'],
        // As AOSP prints a text when it redacts: `String [length=N]`.
        pattern: new RegExp(`(${NOTIFICATION_TEXT_KEYS}=)(?:Spannable)?String \\((.*)\\)$`, 'gm'),
        replace: (_m, key, text) => `${key}String [length=${text.length}]`,
      },
      {
        what: 'notification text',
        why: 'notifications show messages, names and codes (--keep-notifications keeps them)',
        reads: ['dumpsys-notification'],
        pattern: /(tickerText=)(?!null\b)(.+)$/gm,
        replace: (_m, key, text) => `${key}[length=${text.length}]`,
      },
    );
  }
  return list;
}

function encodingOf(bytes: Uint8Array): 'utf16le' | 'utf16be' | 'latin1' {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return 'utf16le';
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return 'utf16be';
  }
  if (bytes.length >= 4 && bytes[1] === 0 && bytes[3] === 0 && bytes[0] !== 0) {
    return 'utf16le';
  }
  return 'latin1';
}

function decode(bytes: Uint8Array, enc: ReturnType<typeof encodingOf>): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (enc === 'utf16be') {
    return Buffer.from(buf).swap16().toString('utf16le');
  }
  return buf.toString(enc);
}

function encode(text: string, enc: ReturnType<typeof encodingOf>): Buffer {
  if (enc === 'utf16be') {
    return Buffer.from(text, 'utf16le').swap16();
  }
  return Buffer.from(text, enc);
}

/** Redacts one command's output; returns the new bytes and what it replaced. */
export function redactOutput(
  read: string | null,
  argv: readonly string[],
  bytes: Uint8Array,
  options: { serial: string | null; keepNotifications: boolean; book?: AddressBook },
): { bytes: Uint8Array; redactions: ProfileRedaction[] } {
  // A PNG (screencap) holds pixels, not text: nothing in it matches, and bytes must not move.
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) {
    return { bytes, redactions: [] };
  }
  const enc = encodingOf(bytes);
  let text = decode(bytes, enc);
  const counts = new Map<string, ProfileRedaction>();
  for (const rule of rules(options.serial, options.book ?? new AddressBook(), options.keepNotifications)) {
    if (rule.reads !== undefined && (read === null || !rule.reads.includes(read))) {
      continue;
    }
    text = text.replace(rule.pattern, (...args: unknown[]) => {
      const groups = args
        .slice(0, -2)
        .filter((g): g is string => typeof g === 'string' || g === undefined) as string[];
      const [match, ...rest] = groups;
      const out = rule.replace(match ?? '', ...rest.map((g) => g ?? ''));
      if (out !== match) {
        const c = counts.get(rule.what) ?? {
          command: argv.join(' '),
          what: rule.what,
          count: 0,
          why: rule.why,
        };
        c.count++;
        counts.set(rule.what, c);
      }
      return out;
    });
  }
  const redactions = [...counts.values()];
  return { bytes: redactions.length === 0 ? bytes : encode(text, enc), redactions };
}

/** One address book for a whole recording, so one address reads the same in every command. */
export function newAddressBook(): AddressBook {
  return new AddressBook();
}
