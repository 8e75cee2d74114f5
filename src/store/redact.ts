import os from 'node:os';
import { realpathSync } from 'node:fs';

/**
 * Redaction for the activity log. A summary may quote a tool's result, and results carry whatever
 * a device, a build or a project said — tokens, passwords, signing keys, home-directory paths. The
 * rules run from the most specific to the most general; each replaces what it finds with a marker
 * so nothing it matched can be matched again by a later rule.
 */

const MARK = '[redacted]';

/** Words that make a `key=value` / `"key": value` pair secret when its key contains one of them. */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'pass',
  'passphrase',
  'pwd',
  'secret',
  'token',
  'apikey',
  'credential',
  'credentials',
  'cookie',
  'authorization',
  'auth',
  'bearer',
  'signature',
  'privatekey',
  'accesskey',
  'sessionid',
  'sessionkey',
  'clientsecret',
]);
/** Two-word spellings (`api_key`, `accessKey`, `private-key`) joined before the check. */
const SECRET_PAIRS = new Set([
  'api key',
  'access key',
  'private key',
  'session id',
  'session key',
  'client secret',
]);

/** Splits a key name into lowercase words: `storePassword` → store, password; `API_KEY` → api, key. */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** True when a key name says its value is a secret. */
export function isSecretKey(key: string): boolean {
  const words = keyWords(key);
  if (words.length === 1 && words[0] === 'key') {
    return true;
  }
  for (let i = 0; i < words.length; i++) {
    if (SECRET_WORDS.has(words[i]!)) {
      return true;
    }
    if (i + 1 < words.length && SECRET_PAIRS.has(`${words[i]} ${words[i + 1]}`)) {
      return true;
    }
  }
  return SECRET_WORDS.has(words.join(''));
}

/** Token formats that are secret wherever they appear. */
const TOKEN_PATTERNS: RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab
  /\bsk-[A-Za-z0-9_-]{16,}/g, // OpenAI / Anthropic style API keys
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bAIza[0-9A-Za-z_-]{30,}/g, // Google API keys
  /\bya29\.[0-9A-Za-z_-]{10,}/g, // Google OAuth access tokens
  /\bnpm_[A-Za-z0-9]{20,}/g,
  /dbt_[A-Za-z0-9_-]{16,}/g, // droidbus bearer tokens (droidbus token), wherever they start
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, // JWTs
];

/**
 * A long run of token characters with letters and digits mixed is treated as a secret even when no
 * rule knows its format (hex digests and UUIDs go too: a summary loses nothing by it). Slashes and
 * dots are left out so file paths and class names survive.
 */
const OPAQUE = /[A-Za-z0-9_+=-]{32,}/g;

function looksOpaque(run: string): boolean {
  const digits = (run.match(/[0-9]/g) ?? []).length;
  const letters = (run.match(/[A-Za-z]/g) ?? []).length;
  return digits >= 2 && letters >= 2;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The home directory's spellings to replace with `~` (as given and with symlinks resolved). */
function homeSpellings(home: string): string[] {
  const spellings = new Set<string>();
  if (home && home !== '/' && home.length > 1) {
    spellings.add(home.replace(/[/\\]+$/, ''));
    try {
      spellings.add(realpathSync(home).replace(/[/\\]+$/, ''));
    } catch {
      // A home that does not exist has one spelling.
    }
  }
  return [...spellings].filter((s) => s.length > 1).sort((a, b) => b.length - a.length);
}

const KEY_AND_SEPARATOR = /([A-Za-z][A-Za-z0-9_.-]{0,63})(["']?\s*[:=]\s*)/g;
const VALUE = /"[^"]*"|'[^']*'|[^\s"',;&?#)}\]]+/y;

/**
 * key=value, key: value, "key": "value", --key=value, ?key=value with a secret-looking key. Only
 * a secret key's value is consumed, so `Project: api_key=x` still finds `api_key`.
 */
function redactSecretValues(text: string): string {
  let out = '';
  let last = 0;
  KEY_AND_SEPARATOR.lastIndex = 0;
  for (let m = KEY_AND_SEPARATOR.exec(text); m; m = KEY_AND_SEPARATOR.exec(text)) {
    if (!isSecretKey(m[1]!)) {
      continue;
    }
    const valueStart = m.index + m[0].length;
    VALUE.lastIndex = valueStart;
    const value = VALUE.exec(text)?.[0];
    if (!value) {
      continue;
    }
    const quote = value.startsWith('"') || value.startsWith("'") ? value[0]! : '';
    out += `${text.slice(last, valueStart)}${quote}${MARK}${quote}`;
    last = valueStart + value.length;
    KEY_AND_SEPARATOR.lastIndex = last;
  }
  return out + text.slice(last);
}

/** Replaces secrets and home-directory paths in `text`. */
export function redact(text: string, home: string = os.homedir()): string {
  let out = text;
  // Private key blocks, even when the END line was cut off.
  out = out.replace(
    /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
    '[redacted private key]',
  );
  // Credentials inside URLs: scheme://user:password@host.
  out = out.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi, `$1${MARK}@`);
  // Authorization header values.
  out = out.replace(/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${MARK}`);
  out = redactSecretValues(out);
  for (const pattern of TOKEN_PATTERNS) {
    out = out.replace(pattern, MARK);
  }
  for (const spelling of homeSpellings(home)) {
    out = out.replace(new RegExp(`${escapeRegExp(spelling)}(?=[/\\\\\\s"'\`),;:]|$)`, 'g'), '~');
  }
  // Other people's home folders name them.
  out = out.replace(/(^|[\s"'`(=:])\/(?:home|Users)\/[^/\s"'`]+(?=\/|[\s"'`),;]|$)/g, '$1~');
  out = out.replace(/\b[A-Za-z]:\\Users\\[^\\\s"'`]+/g, '~');
  out = out.replace(OPAQUE, (run) => (looksOpaque(run) ? MARK : run));
  return out;
}

/** Cuts `text` to at most `maxBytes` of UTF-8, ending with `…` when it was cut. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) {
    return text;
  }
  const budget = maxBytes - 3; // '…' is 3 bytes
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (bytes + size > budget) {
      break;
    }
    bytes += size;
    end += ch.length;
  }
  return text.slice(0, end) + '…';
}

/** At most this much of a text is looked at; a summary keeps far less. */
const SCAN_CHARS = 4096;

/**
 * A one-line summary of at most `maxBytes` bytes, redacted. The text is cut before redaction (a
 * result can be megabytes), and the word the cut went through is dropped, so a secret cut in half
 * is never left behind in a form no rule recognizes.
 */
export function summarize(text: string, maxBytes = 120, home?: string): string {
  let scanned = text;
  if (scanned.length > SCAN_CHARS) {
    scanned = scanned.slice(0, SCAN_CHARS);
    const lastSpace = scanned.search(/\s\S*$/);
    scanned = lastSpace > 0 ? scanned.slice(0, lastSpace) : '';
  }
  const clean = redact(scanned, home).replace(/\s+/g, ' ').trim();
  return truncateUtf8(clean, maxBytes);
}
