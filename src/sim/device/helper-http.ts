/**
 * The simulated UiAutomator2 server's HTTP plumbing, as appium-uiautomator2-server frames it: errors
 * with their status and W3C code, the unknown-route and missing-field answers, the `{sessionId, value}`
 * envelope (http/AppiumResponse.java renderTo), the body read, new-session capabilities and the W3C
 * actions gesture. No device here: helper-server.ts and helper-elements.ts share it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** An answer with an HTTP status and a W3C error code (`value: {error, message, stacktrace}`). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

export function unknownCommand(): HttpError {
  return new HttpError(
    404,
    'unknown command',
    'The requested resource could not be found, or a request was received using an HTTP method that is not supported by the mapped resource',
  );
}

/** A required field of a request's model that is missing (BaseModel.validate). */
export function missing(model: string, field: string): HttpError {
  return new HttpError(
    400,
    'invalid argument',
    `${model}: The mandatory field '${field}' is not present in JSON`,
  );
}

/**
 * utils/w3c/W3CCapsUtils.parseCapabilities: `alwaysMatch` merged with the first `firstMatch` entry,
 * the `appium:` prefix stripped; other vendor prefixes (`droidbus:client`) kept as they are.
 */
export function mergedCapabilities(caps: {
  alwaysMatch?: unknown;
  firstMatch?: unknown;
}): Record<string, unknown> {
  const strip = (o: unknown): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(typeof o === 'object' && o !== null ? o : {}).map(([k, v]) => [
        k.replace(/^appium:/, ''),
        v,
      ]),
    );
  const first = Array.isArray(caps.firstMatch) ? caps.firstMatch[0] : undefined;
  return { ...strip(caps.alwaysMatch), ...strip(first) };
}

export interface Point {
  x: number;
  y: number;
}

/**
 * The gesture of W3C actions from one pointer source: pointerMove, pointerDown, (pause),
 * pointerUp is a tap at the first move; with one more pointerMove before the up, a swipe to it.
 */
export function gestureOf(body: unknown): { from: Point; to?: Point; durationMs: number } | null {
  const sources = (body as { actions?: unknown } | null)?.actions;
  if (!Array.isArray(sources) || sources.length !== 1) {
    return null;
  }
  const source = sources[0] as { type?: string; actions?: unknown };
  if (source.type !== 'pointer' || !Array.isArray(source.actions)) {
    return null;
  }
  const steps = (source.actions as { type?: string; x?: unknown; y?: unknown; duration?: unknown }[]).filter(
    (a) => a.type !== 'pause',
  );
  const point = (a: { x?: unknown; y?: unknown } | undefined): Point | null =>
    typeof a?.x === 'number' && typeof a.y === 'number' ? { x: Math.round(a.x), y: Math.round(a.y) } : null;
  const kinds = steps.map((a) => a.type).join(',');
  const from = point(steps[0]);
  if (from === null) {
    return null;
  }
  if (kinds === 'pointerMove,pointerDown,pointerUp') {
    return { from, durationMs: 0 };
  }
  const to = point(steps[2]);
  const duration = steps[2]?.duration;
  const durationMs = typeof duration === 'number' && duration > 0 ? duration : 0;
  return kinds === 'pointerMove,pointerDown,pointerMove,pointerUp' && to !== null
    ? { from, to, durationMs }
    : null;
}

export function send(res: ServerResponse, status: number, sessionId: string, value: unknown): void {
  const body = JSON.stringify({ sessionId, value });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) {
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') {
    return null;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'invalid argument', `the body is not JSON: ${text.slice(0, 100)}`);
  }
}
