/**
 * What a network capture costs each request (issue 72): the same small POST to a local server made
 * straight, and through the capture's proxy (mockttp passing through, recording every exchange),
 * interleaved so that both see the same machine. Plain HTTP, one connection per request as the
 * simulated apps make them. Figures: median and p99 per request, and the proxy's added time.
 * Run: npx tsx bench/network-proxy.ts [--requests 400]
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { generateCACertificate } from 'mockttp';
import { startCaptureProxy, type CaptureLog } from '../src/actors/network/capture-proxy.js';
import { printTable, quantile } from './stats.js';

const args = parseArgs({ options: { requests: { type: 'string', default: '400' } } });
const n = Number(args.values.requests);

const body = JSON.stringify({ username: 'ada', password: 'wrong' });

function post(port: number, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const r = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: { Host: host, 'Content-Type': 'application/json', Connection: 'close' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - t0));
      },
    );
    r.on('error', reject);
    r.end(body);
  });
}

const server: Server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(401, { 'Content-Type': 'application/json' });
    res.end('{"error":"bad credentials"}');
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const apiPort = (server.address() as AddressInfo).port;
const log: CaptureLog = { exchanges: [], byId: new Map(), lastLaunch: null };
const proxy = await startCaptureProxy(log, await generateCACertificate());

const direct: number[] = [];
const proxied: number[] = [];
for (let i = 0; i < 20; i++) {
  await post(apiPort, '/auth', `127.0.0.1:${apiPort}`);
  await post(proxy.port, `http://127.0.0.1:${apiPort}/auth`, `127.0.0.1:${apiPort}`);
}
for (let i = 0; i < n; i++) {
  direct.push(await post(apiPort, '/auth', `127.0.0.1:${apiPort}`));
  proxied.push(await post(proxy.port, `http://127.0.0.1:${apiPort}/auth`, `127.0.0.1:${apiPort}`));
}
const ms = (v: number): string => v.toFixed(2);
printTable(`network capture: ${n} POSTs each way, one connection per request`, [
  { path: 'direct', median_ms: ms(quantile(direct, 0.5)), p99_ms: ms(quantile(direct, 0.99)) },
  {
    path: 'through the capture proxy',
    median_ms: ms(quantile(proxied, 0.5)),
    p99_ms: ms(quantile(proxied, 0.99)),
  },
  {
    path: 'added by the proxy',
    median_ms: ms(quantile(proxied, 0.5) - quantile(direct, 0.5)),
    p99_ms: ms(quantile(proxied, 0.99) - quantile(direct, 0.99)),
  },
]);
console.log(`recorded: ${log.exchanges.length} exchanges kept (of ${n + 20})`);
await proxy.stop();
server.close();
