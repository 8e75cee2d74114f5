import { z } from 'zod';
import { defineEvent, defineRequest } from '../contract.js';
import { serialSchema } from './devices.js';
import { packageNameSchema } from './extras.js';

/**
 * The network actor (issue 72): an intercepting HTTP proxy per device (mockttp, bound to 127.0.0.1)
 * that the device reaches through `adb reverse` and uses through its global proxy setting, and the
 * requests it saw. The device actor changes the device's routing (`device.proxy_route` and
 * `device.proxy_unroute`), recording and restoring the proxy setting the device had.
 */

const bySerial = (p: { serial: string }): string => p.serial;

/** A proxy port on both sides of the reverse forward (never a privileged one). */
const portSchema = z.number().int().min(1024).max(65535);

/** The device's proxy setting as `settings get` prints it; null when none is set. */
const proxySettingSchema = z.string().max(300).nullable();

/** One request as a list shows it. */
export const networkEntrySchema = z.object({
  id: z.string(),
  /** When the request started (ISO 8601). */
  at: z.string(),
  method: z.string(),
  url: z.string(),
  /** The response's status; null while waiting, or when the exchange failed. */
  status: z.number().int().nullable(),
  duration_ms: z.number().nullable(),
  request_bytes: z.number().int(),
  response_bytes: z.number().int().nullable(),
  /** Why there is no response: the upstream unreachable, the client gone, a TLS handshake refused. */
  failure: z.string().nullable(),
  /** The launch it followed within the capture (`launched com.example.app 1.2 s before`), if any. */
  after: z.string().nullable(),
});
export type NetworkEntry = z.infer<typeof networkEntrySchema>;

const headerListSchema = z.array(z.tuple([z.string(), z.string()]));

/** A body as an answer carries it: text (JSON pretty, cut at a budget) or a summary of binary. */
export const bodySchema = z.object({
  content_type: z.string().nullable(),
  bytes: z.number().int(),
  /** The text shown; null for a binary body. */
  text: z.string().nullable(),
  truncated: z.boolean(),
  /** What was done to it: `json pretty-printed`, `3 secrets masked`, `binary (image/png)`. */
  notes: z.array(z.string()),
});

/** What an app trusts for a set of hosts: where its anchors come from, and whether a pin-set applies. */
const hostTrustSchema = z.object({
  anchors: z.array(
    z.object({
      source: z.enum(['system', 'user', 'app']),
      /** An app certificate's file in the APK (`res/raw/droidbus_ca.pem`). */
      file: z.string().nullable(),
      /** An app certificate's SHA-256 fingerprint (colon-separated hex, as openssl prints it). */
      sha256: z.string().nullable(),
      override_pins: z.boolean(),
    }),
  ),
  pinned: z.boolean(),
});
export type HostTrustView = z.infer<typeof hostTrustSchema>;

export const networkRequests = {
  'device.app_network_security': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema, package: packageNameSchema }),
    response: z.object({
      /** The base APK read; null when the package is not installed. */
      apk: z.string().nullable(),
      debuggable: z.boolean().nullable(),
      target_sdk: z.number().int().nullable(),
      /** The config file in the APK; null when the manifest names none. */
      config: z.string().nullable(),
      /** What hosts no domain-config names get. */
      default_trust: hostTrustSchema.nullable(),
      /** Each domain-config's hosts and what they get. */
      domains: z.array(z.object({ domains: z.array(z.string()), trust: hostTrustSchema })),
      /** Why the APK could not be read (not readable by the shell user, damaged); null when it was. */
      unread: z.string().nullable(),
    }),
    timeoutMs: 60_000,
  }),
  'device.proxy_route': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema, port: portSchema }),
    response: z.object({ previous: proxySettingSchema, proxy: z.string() }),
    timeoutMs: 20_000,
  }),
  'device.proxy_unroute': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema, port: portSchema, previous: proxySettingSchema }),
    response: z.object({
      /** The device's setting was droidbus's and is back to what it was. */
      restored: z.boolean(),
      /** The setting now. */
      current: proxySettingSchema,
    }),
    timeoutMs: 20_000,
  }),
  'network.start': defineRequest({
    actor: 'network',
    request: z.object({ serial: serialSchema, package: packageNameSchema.nullable() }),
    response: z.object({
      serial: z.string(),
      port: z.number().int(),
      previous_proxy: proxySettingSchema,
      started_at: z.string(),
      /** Whether the app's HTTPS can be read (the package given), and why; null without one. */
      https: z
        .object({
          readable: z.enum(['yes', 'if_ca_installed', 'no', 'not_installed', 'unknown']),
          why: z.string(),
          /** droidbus's CA certificate, for the user to install on the device. */
          ca_path: z.string(),
          /** Hosts whose pin-set keeps their HTTPS unreadable (droidbus's CA does not override it). */
          pinned_hosts: z.array(z.string()),
        })
        .nullable(),
    }),
    timeoutMs: 40_000,
  }),
  'network.stop': defineRequest({
    actor: 'network',
    request: z.object({ serial: serialSchema }),
    response: z.object({
      serial: z.string(),
      requests: z.number().int(),
      restored: z.boolean(),
      proxy_now: proxySettingSchema,
    }),
    timeoutMs: 40_000,
  }),
  'network.log': defineRequest({
    actor: 'network',
    request: z.object({
      serial: serialSchema,
      /** A plain substring of the URL. */
      url: z.string().min(1).max(500).optional(),
      /** Or a regular expression over the URL (RE2: linear time). */
      url_regex: z.string().min(1).max(200).optional(),
      method: z
        .string()
        .regex(/^[A-Za-z]{1,16}$/, 'an HTTP method such as POST')
        .optional(),
      /** An exact status (401), or a class (4 for 4xx). */
      status: z.number().int().min(1).max(599).optional(),
      /** Requests that started at or after this time (epoch ms). */
      since_ms: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(200),
    }),
    response: z.object({
      serial: z.string(),
      capturing: z.boolean(),
      /** Requests kept for the device (the newest MAX_KEPT). */
      total: z.number().int(),
      matched: z.number().int(),
      requests: z.array(networkEntrySchema),
    }),
    timeoutMs: 10_000,
  }),
  'network.entry': defineRequest({
    actor: 'network',
    request: z.object({
      serial: serialSchema,
      id: z.string().regex(/^[\w-]{1,64}$/, 'a request id from get_network_log'),
      body_budget: z.number().int().min(0).max(200_000),
      unmask: z.boolean(),
    }),
    response: networkEntrySchema.extend({
      request_headers: headerListSchema,
      response_headers: headerListSchema.nullable(),
      request_body: bodySchema,
      response_body: bodySchema.nullable(),
      /** Header and body values masked (Authorization, cookies, keys, tokens). */
      masked: z.number().int(),
    }),
    timeoutMs: 10_000,
  }),
};

export const networkEvents = {
  /**
   * A captured request ended (answered, failed, or its handshake refused): the debug sessions put it
   * in their timelines, the logcat actor keeps the last few per device to show beside a crash.
   */
  'network.exchange': defineEvent(
    z.object({
      device: z.string(),
      /** The package the capture was started for; null for a device-wide capture. */
      package: z.string().nullable(),
      entry: networkEntrySchema,
    }),
  ),
};
