import type { ServerResponse } from 'node:http';
import type { BusClient } from '../../bus/client.js';
import type { EventTopic } from '../../bus/registry.js';

/** A comment line every so often keeps proxies and the browser from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;
/**
 * A browser that does not read its stream (a sleeping tab) must not make the host buffer without
 * bound: past this many unsent bytes the stream is closed; EventSource reconnects and the page
 * reloads what it shows.
 */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/**
 * Serves one server-sent-events stream: every bus event of `topics` as `event: <topic>` with its
 * payload as JSON, straight from the bus as it is published. Resolves when the stream ends.
 */
export function serveEventStream(
  res: ServerResponse,
  bus: BusClient,
  topics: readonly EventTopic[],
  headers: Record<string, string>,
): Promise<void> {
  res.writeHead(200, {
    ...headers,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
  });
  // The first bytes tell EventSource the stream is open (and to retry in 2 s if it breaks).
  res.write(`retry: 2000\n: droidbus\n\n`);
  return new Promise((resolve) => {
    const offs: (() => void)[] = [];
    let ended = false;
    const end = (): void => {
      if (ended) {
        return;
      }
      ended = true;
      clearInterval(keepalive);
      for (const off of offs) {
        off();
      }
      if (!res.writableEnded) {
        res.end();
      }
      resolve();
    };
    const send = (chunk: string): void => {
      if (ended) {
        return;
      }
      if (res.writableLength > MAX_BUFFERED_BYTES) {
        end();
        return;
      }
      res.write(chunk);
    };
    for (const topic of topics) {
      offs.push(bus.on(topic, (payload) => send(`event: ${topic}\ndata: ${JSON.stringify(payload)}\n\n`)));
    }
    const keepalive = setInterval(() => send(': keep-alive\n\n'), KEEPALIVE_MS);
    keepalive.unref();
    res.once('close', end);
  });
}
