import { z } from 'zod';
import { exchangeLine } from '../../util/exchange-line.js';
import { packageNameSchema } from '../../bus/messages/extras.js';
import { defineDeviceTool } from '../define-device-tool.js';
import { defineTool } from '../define-tool.js';
import { deviceResponseOf, responseOf } from '../responses.js';
import { requireRoot } from './build.js';

export const startNetworkCapture = defineDeviceTool({
  name: 'start_network_capture',
  answers: 'network.start',
  toolset: 'network',
  kind: 'write',
  title: 'Start capturing the network',
  description:
    "Routes the device's HTTP traffic through droidbus's proxy on this machine (adb reverse and the global proxy setting, which is recorded and always given back) and records every request: method, URL, status, timing, headers and bodies. UI actions then name the requests they caused.",
  input: z.object({
    package: packageNameSchema.optional().describe('The app whose traffic matters (all traffic is recorded)'),
  }),
  output: deviceResponseOf('network.start'),
  async handle(args, ctx) {
    const r = await ctx.ask('network.start', { package: args.package ?? null });
    return {
      text: `Capturing the network of ${ctx.serial} through 127.0.0.1:${r.port} (its proxy setting was ${r.previous_proxy ?? 'none'}; stop_network_capture gives it back). Plain HTTP is read whole; HTTPS ${r.https === null ? "is read when the app trusts droidbus's CA, else its host and the refused handshake are recorded" : `of ${args.package}: ${r.https.why}`}.`,
      structured: { ...r, device_serial: ctx.serial },
    };
  },
});

export const stopNetworkCapture = defineDeviceTool({
  name: 'stop_network_capture',
  answers: 'network.stop',
  toolset: 'network',
  kind: 'write',
  title: 'Stop capturing the network',
  description:
    'Gives the device its proxy setting back and stops the proxy. The requests recorded stay readable with get_network_log until the next capture on this device.',
  output: deviceResponseOf('network.stop'),
  async handle(_args, ctx) {
    const r = await ctx.ask('network.stop', {});
    return {
      text: `Stopped capturing ${ctx.serial}: ${r.requests} request${r.requests === 1 ? '' : 's'} recorded; ${r.restored ? `its proxy setting is back to ${r.proxy_now ?? 'none'}` : `its proxy setting was changed by someone else meanwhile (${r.proxy_now ?? 'none'}) and was left as it is`}.`,
      structured: { ...r, device_serial: ctx.serial },
    };
  },
});

export const getNetworkLog = defineDeviceTool({
  name: 'get_network_log',
  answers: 'network.log',
  toolset: 'network',
  kind: 'read',
  title: 'Network requests',
  description:
    'The requests a capture recorded, newest first: method, URL, status, duration, sizes and the launch they followed; filtered by URL (substring or url_regex), method, status (401, or 4 for every 4xx) and time. get_network_request shows one whole.',
  input: z.object({
    url: z.string().min(1).max(500).optional().describe('URL contains'),
    url_regex: z.string().min(1).max(200).optional().describe('URL matches (RE2)'),
    method: z.string().max(16).optional().describe('GET, POST, …'),
    status: z.number().int().min(1).max(599).optional().describe('401, or 4 for every 4xx'),
    since_ms: z.number().int().min(0).optional().describe('Started at or after (epoch ms)'),
    limit: z.number().int().min(1).max(200).default(30).describe('Newest requests shown'),
  }),
  output: deviceResponseOf('network.log'),
  async handle(args, ctx) {
    const r = await ctx.ask('network.log', {
      ...(args.url !== undefined ? { url: args.url } : {}),
      ...(args.url_regex !== undefined ? { url_regex: args.url_regex } : {}),
      ...(args.method !== undefined ? { method: args.method } : {}),
      ...(args.status !== undefined ? { status: args.status } : {}),
      ...(args.since_ms !== undefined ? { since_ms: args.since_ms } : {}),
      limit: args.limit,
    });
    const head = `${r.matched} of ${r.total} request${r.total === 1 ? '' : 's'} on ${ctx.serial}${r.capturing ? ' (capturing)' : ' (capture stopped)'}`;
    return {
      text: [
        head,
        ...r.requests.map(
          (e) => `${e.id}  ${e.at.slice(11, 23)}  ${exchangeLine(e)}${e.after ? ` (${e.after})` : ''}`,
        ),
      ].join('\n'),
      structured: { ...r, device_serial: ctx.serial },
    };
  },
});

export const getNetworkRequest = defineDeviceTool({
  name: 'get_network_request',
  answers: 'network.entry',
  toolset: 'network',
  kind: 'read',
  title: 'One network request',
  description:
    'One recorded request whole: its headers and bodies (JSON pretty-printed, text cut at body_budget, binary summarised), Authorization, cookies, keys and tokens masked unless unmask.',
  input: z.object({
    id: z.string().max(64).describe('The request, from get_network_log'),
    body_budget: z.number().int().min(0).max(200_000).default(4000).describe('Characters of each body'),
    unmask: z.boolean().default(false).describe('Show secrets (Authorization, cookies, keys, tokens)'),
  }),
  output: deviceResponseOf('network.entry'),
  async handle(args, ctx) {
    const r = await ctx.ask('network.entry', {
      id: args.id,
      body_budget: args.body_budget,
      unmask: args.unmask,
    });
    const headers = (list: [string, string][] | null): string =>
      (list ?? []).map(([k, v]) => `  ${k}: ${v}`).join('\n');
    const body = (b: typeof r.request_body | null): string =>
      b === null
        ? '  (none)'
        : b.text === null
          ? `  (${b.notes.join('; ')})`
          : b.text === ''
            ? '  (empty)'
            : b.text;
    const notes = (b: typeof r.request_body | null): string =>
      b !== null && b.notes.length > 0 ? `; ${b.notes.join('; ')}` : '';
    return {
      text: [
        `${exchangeLine(r)} (${r.id}, ${r.at}${r.after ? `, ${r.after}` : ''})`,
        `Request headers:\n${headers(r.request_headers)}`,
        `Request body (${r.request_bytes} bytes${notes(r.request_body)}):\n${body(r.request_body)}`,
        `Response headers:\n${headers(r.response_headers)}`,
        `Response body (${r.response_bytes ?? 0} bytes${notes(r.response_body)}):\n${body(r.response_body)}`,
        ...(r.masked > 0
          ? [`${r.masked} secret value${r.masked === 1 ? '' : 's'} masked (unmask: true shows them).`]
          : []),
      ].join('\n'),
      structured: { ...r, device_serial: ctx.serial },
    };
  },
});

export const addNetworkSecurityConfig = defineTool({
  name: 'add_network_security_config',
  answers: 'project.network_security_config',
  toolset: 'network',
  kind: 'write',
  title: "Let debug builds trust droidbus's CA",
  description:
    "Writes into the project's application module, for debug builds only: droidbus's CA certificate (src/debug/res/raw/droidbus_ca.pem) and a network security config trusting it under <debug-overrides> (a debug copy of the app's own config, its rules and pins kept), named by src/debug/AndroidManifest.xml when no manifest names one. Release builds are untouched. Rebuild and reinstall the debug build; then start_network_capture reads its HTTPS. dry_run shows the files without writing.",
  input: z.object({
    module: z
      .string()
      .min(1)
      .max(300)
      .regex(/^:?[A-Za-z0-9_.-]+(:[A-Za-z0-9_.-]+)*$/, 'a Gradle path like :app')
      .optional()
      .describe('The application module (:app); needed when the project has several'),
    dry_run: z.boolean().default(false).describe('Answer the files and their contents without writing them'),
  }),
  output: responseOf('project.network_security_config'),
  async handle(args, ctx) {
    const r = await ctx.bus.request(
      'project.network_security_config',
      {
        root: requireRoot(ctx),
        dry_run: args.dry_run,
        ...(args.module !== undefined ? { module: args.module } : {}),
      },
      { signal: ctx.signal },
    );
    const changed = r.files.filter((f) => f.action !== 'unchanged');
    const head = args.dry_run
      ? `Would write ${changed.length} file${changed.length === 1 ? '' : 's'} in ${r.module} (dry run, nothing written):`
      : changed.length === 0
        ? `${r.module}'s debug builds already trust droidbus's CA; nothing to change:`
        : `Wrote ${changed.length} file${changed.length === 1 ? '' : 's'} in ${r.module}:`;
    const lines = r.files.map((f) => `  ${f.action.padEnd(9)} ${f.path} — ${f.why}`);
    const next =
      changed.length > 0 && !args.dry_run
        ? [
            'Rebuild and reinstall the debug build (its HTTPS is then read by start_network_capture); release builds are unchanged.',
          ]
        : [];
    return {
      text: [head, ...lines, ...r.notes.map((n) => `Note: ${n}.`), ...next].join('\n'),
      structured: r,
    };
  },
});

export const networkTools = [
  startNetworkCapture,
  stopNetworkCapture,
  getNetworkLog,
  getNetworkRequest,
  addNetworkSecurityConfig,
];
