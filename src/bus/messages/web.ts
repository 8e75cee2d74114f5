import { z } from 'zod';
import { defineRequest } from '../contract.js';
import { serialSchema } from './devices.js';

/**
 * WebViews and browsers on a device (issue 73): their devtools sockets (`/proc/net/unix`), reached
 * through `adb forward`, listed with their pages (`/json/list`), and a page read like a screen
 * through the Chrome DevTools protocol — elements as rows with screen bounds.
 */

const bySerial = (p: { serial: string }): string => p.serial;

/** Screen pixels: left, top, right, bottom. */
const boundsSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);

/** A devtools socket's name as /proc/net/unix lists it (without the `@`). */
export const devtoolsSocketSchema = z
  .string()
  .max(200)
  .regex(/^[\w.]*devtools_remote(_\d+)?$/, 'a devtools socket name as list_webviews shows it');

/** A page's id as /json/list names it. */
export const pageIdSchema = z
  .string()
  .max(64)
  .regex(/^[\w-]+$/, 'a page id as list_webviews shows it');

/** Which page a request means: the socket's (the only debuggable one when left out), the page (the visible one). */
const pageChoice = { socket: devtoolsSocketSchema.optional(), page_id: pageIdSchema.optional() };

export const webPageSchema = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string(),
  type: z.string(),
  attached: z.boolean().nullable(),
  visible: z.boolean().nullable(),
  /** Where the WebView showing it is on screen; null when the socket does not say (a browser). */
  bounds: boundsSchema.nullable(),
});

export const webViewSchema = z.object({
  socket: z.string(),
  /** The pid in the socket's name (`webview_devtools_remote_<pid>`); null for a browser's. */
  pid: z.number().int().nullable(),
  /** `Android-Package` of /json/version. */
  package: z.string().nullable(),
  browser: z.string().nullable(),
  pages: z.array(webPageSchema),
  /** Why it could not be read (the app died, the socket refused); null when it was. */
  unread: z.string().nullable(),
});
export type WebViewInfo = z.infer<typeof webViewSchema>;

export const webRowSchema = z.object({
  /** The element's number in this answer, for the agent to name it. */
  ref: z.number().int(),
  /** button, link, textbox, checkbox, heading, text… */
  role: z.string(),
  /** What it says: its text, label, placeholder or alt. */
  name: z.string(),
  /** An input's current value (a password's never). */
  value: z.string().nullable(),
  /** `#id` when it has one. */
  id: z.string().nullable(),
  /** On screen, in screen pixels (the WebView's place, scroll and density applied). */
  bounds: boundsSchema,
  /** Whether its centre is inside the WebView's visible part. */
  on_screen: z.boolean(),
});
export type WebRow = z.infer<typeof webRowSchema>;

/** How much of an evaluation's result an answer carries. */
export const MAX_EVAL_RESULT_CHARS = 20_000;

export const webRequests = {
  /**
   * JavaScript run in a WebView's page (CDP Runtime.evaluate): only for a trusted project's own app
   * (its application ids), refused otherwise — a page is the app's and its user's.
   */
  'device.webview_evaluate': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      /** The session's project: it must be trusted, and the WebView's app one of its. */
      root: z.string().max(4096).nullable(),
      expression: z.string().min(1).max(4_000),
      ...pageChoice,
    }),
    response: z.object({
      socket: z.string(),
      package: z.string().nullable(),
      page: webPageSchema,
      /** The value as JSON (cut at MAX_EVAL_RESULT_CHARS); null when it threw. */
      result: z.string().nullable(),
      /** `undefined`, `string`, `object`… */
      type: z.string(),
      truncated: z.boolean(),
      /** What it threw, as the page's console would say it; null when it did not. */
      exception: z.string().nullable(),
    }),
    timeoutMs: 30_000,
  }),
  'device.webviews': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema }),
    response: z.object({ webviews: z.array(webViewSchema) }),
    timeoutMs: 30_000,
  }),
  'device.webview_page': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      ...pageChoice,
      max_rows: z.number().int().min(1).max(500),
    }),
    response: z.object({
      socket: z.string(),
      package: z.string().nullable(),
      page: webPageSchema,
      /** Screen pixels per CSS pixel. */
      scale: z.number(),
      rows: z.array(webRowSchema),
      /** Rows left out past max_rows. */
      more: z.number().int(),
    }),
    timeoutMs: 30_000,
  }),
};
