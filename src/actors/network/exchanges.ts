/**
 * What a network capture keeps of each request, and how an answer shows it: a line per request for
 * a list, and one request whole — headers and bodies, secrets masked unless asked (Authorization,
 * cookies, API keys, tokens: by the header's or field's name, and token formats anywhere), JSON
 * pretty-printed, text cut at a budget, binary summarised.
 */
import type { z } from 'zod';
import { RE2JS } from 're2js';
import type { bodySchema, NetworkEntry } from '../../bus/messages/network.js';
import { isSecretKey, redact } from '../../store/redact.js';

/** One request and what came of it. */
export interface Exchange {
  id: string;
  startedAt: number;
  method: string;
  url: string;
  requestHeaders: [string, string][];
  requestBody: Buffer;
  status: number | null;
  responseHeaders: [string, string][] | null;
  responseBody: Buffer | null;
  endedAt: number | null;
  error: string | null;
  after: string | null;
}

export const MASK = '[redacted]';

/** Headers whose values are secrets whatever their name says. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

function secretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase()) || isSecretKey(name);
}

/** A URL with the values of secret query parameters masked (`?api_key=[masked]`). */
export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) {
    return url;
  }
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq > 0 && isSecretKey(decodeURIComponentSafe(pair.slice(0, eq)))
        ? `${pair.slice(0, eq)}=${MASK}`
        : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A list line's fields. */
export function summaryOf(e: Exchange): NetworkEntry {
  return {
    id: e.id,
    at: new Date(e.startedAt).toISOString(),
    method: e.method,
    url: maskUrl(e.url),
    status: e.status,
    duration_ms: e.endedAt === null ? null : e.endedAt - e.startedAt,
    request_bytes: e.requestBody.length,
    response_bytes: e.responseBody?.length ?? null,
    failure: e.error,
    after: e.after,
  };
}

/** Headers as shown, secrets masked unless `unmask`; how many were. */
export function shownHeaders(
  headers: [string, string][],
  unmask: boolean,
): { headers: [string, string][]; masked: number } {
  let masked = 0;
  const shown = headers.map(([k, v]): [string, string] => {
    if (!unmask && secretHeader(k)) {
      masked++;
      return [k, MASK];
    }
    return [k, v];
  });
  return { headers: shown, masked };
}

function headerValue(headers: [string, string][], name: string): string | null {
  return headers.find(([k]) => k.toLowerCase() === name)?.[1] ?? null;
}

/** Masks the values of secret keys in parsed JSON; counts them. */
function maskJson(value: unknown, count: { n: number }): unknown {
  if (Array.isArray(value)) {
    return value.map((v) => maskJson(v, count));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        if (isSecretKey(k) && (typeof v === 'string' || typeof v === 'number')) {
          count.n++;
          return [k, MASK];
        }
        return [k, maskJson(v, count)];
      }),
    );
  }
  return typeof value === 'string' ? redactValue(value, count) : value;
}

/** A value with token formats (ghp_…, sk-…, JWTs) masked wherever they appear. */
function redactValue(value: string, count: { n: number }): string {
  const shown = redact(value);
  if (shown !== value) {
    count.n++;
  }
  return shown;
}

const TEXTUAL =
  /^(text\/|application\/(json|xml|x-www-form-urlencoded|javascript|graphql)|[^;]*\+(json|xml))/i;

/** A body as an answer carries it. */
export function shownBody(
  body: Buffer,
  headers: [string, string][],
  budget: number,
  unmask: boolean,
): z.infer<typeof bodySchema> & { masked: number } {
  const contentType = headerValue(headers, 'content-type');
  const notes: string[] = [];
  const count = { n: 0 };
  const looksText = contentType === null ? !body.subarray(0, 512).includes(0) : TEXTUAL.test(contentType);
  if (body.length === 0) {
    return { content_type: contentType, bytes: 0, text: '', truncated: false, notes, masked: 0 };
  }
  if (!looksText) {
    notes.push(`binary (${contentType ?? 'no content type'}), not shown`);
    return { content_type: contentType, bytes: body.length, text: null, truncated: false, notes, masked: 0 };
  }
  let text = body.toString('utf8');
  let json = false;
  if (/json/i.test(contentType ?? '') || /^\s*[[{]/.test(text)) {
    try {
      const parsed = JSON.parse(text) as unknown;
      text = JSON.stringify(unmask ? parsed : maskJson(parsed, count), null, 2);
      notes.push('json pretty-printed');
      json = true;
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  // JSON is masked field by field above; unmasked text is shown whole.
  if (!json && !unmask) {
    text = /x-www-form-urlencoded/i.test(contentType ?? '')
      ? text
          .split('&')
          .map((pair) => {
            const eq = pair.indexOf('=');
            if (eq > 0 && isSecretKey(decodeURIComponentSafe(pair.slice(0, eq)))) {
              count.n++;
              return `${pair.slice(0, eq)}=${MASK}`;
            }
            return eq > 0 ? `${pair.slice(0, eq + 1)}${redactValue(pair.slice(eq + 1), count)}` : pair;
          })
          .join('&')
      : redactValue(text, count);
  }
  if (count.n > 0) {
    notes.push(`${count.n} secret${count.n === 1 ? '' : 's'} masked`);
  }
  const truncated = text.length > budget;
  if (truncated) {
    text = `${text.slice(0, budget)}…`;
    notes.push(`cut at ${budget} characters`);
  }
  return { content_type: contentType, bytes: body.length, text, truncated, notes, masked: count.n };
}

/** What a list asks for. */
export interface ExchangeFilter {
  url?: string | undefined;
  url_regex?: string | undefined;
  method?: string | undefined;
  status?: number | undefined;
  since_ms?: number | undefined;
}

/** A predicate for the filter; throws Error with a reason for a regex RE2 cannot run. */
export function exchangeMatcher(f: ExchangeFilter): (e: Exchange) => boolean {
  let re: RE2JS | null = null;
  if (f.url_regex !== undefined) {
    try {
      re = RE2JS.compile(f.url_regex);
    } catch (err) {
      throw new Error(
        `url_regex is not a regular expression RE2 runs: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  const method = f.method?.toUpperCase();
  return (e) =>
    (f.url === undefined || e.url.includes(f.url)) &&
    (re === null || re.matcher(e.url).find()) &&
    (method === undefined || e.method === method) &&
    (f.status === undefined ||
      (f.status < 10
        ? e.status !== null && Math.floor(e.status / 100) === f.status
        : e.status === f.status)) &&
    (f.since_ms === undefined || e.startedAt >= f.since_ms);
}
