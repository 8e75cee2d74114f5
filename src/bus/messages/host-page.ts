import { z } from 'zod';
import { defineEvent, defineRequest } from '../contract.js';
import { serialSchema } from './devices.js';

/**
 * The host's own requests behind its page (and the person's CLI): the user's decisions (trust,
 * storage folders), the login link, and what the page shows that no actor owns (the activity log,
 * standalone sessions, the host's runtime figures). The host answers them on its main thread and
 * refuses every origin but the host's person (`host`) and the CLI (`cli`): no agent, attached or
 * over HTTP, can trust a project, allow a folder or get a login link.
 */

/** A project the page lists with the user's trust decision. */
export const pageProjectSchema = z.object({
  /** Canonical root. */
  root: z.string(),
  trusted: z.boolean(),
  /** The folder exists and is a Gradle build (settings.gradle(.kts)). */
  exists: z.boolean(),
  /** Why it is listed: the host has it open, a session uses it, or it is in the trusted list. */
  sources: z.array(z.enum(['host', 'session', 'trusted'])),
});
export type PageProject = z.infer<typeof pageProjectSchema>;

/** One line of mcp-activity.jsonl as the page shows it. */
export const activityEntrySchema = z.object({
  ts: z.string(),
  pid: z.number(),
  session: z.string().nullable(),
  kind: z.string(),
  name: z.string(),
  duration_ms: z.number().nullable(),
  status: z.string(),
  summary: z.string(),
});

/** A standalone `droidbus mcp` from its `sessions/<pid>.json` record. */
export const standaloneSessionSchema = z.object({
  pid: z.number().int(),
  session_id: z.string(),
  started_at: z.string(),
  project: z.string().nullable(),
  reason: z.string(),
  version: z.string().nullable(),
  client_name: z.string().nullable(),
});

export const hostPageRequests = {
  /** A fresh one-time login link to the host's page. UNAVAILABLE when the host serves no page. */
  'host.page_link': defineRequest({
    actor: 'host',
    request: z.object({}),
    response: z.object({ url: z.string(), expires_at: z.string() }),
    timeoutMs: 5_000,
  }),
  /** The projects the user may decide about: trusted ones, the host's, the sessions'. */
  'host.projects': defineRequest({
    actor: 'host',
    request: z.object({}),
    response: z.object({ projects: z.array(pageProjectSchema) }),
    timeoutMs: 10_000,
  }),
  /** The user trusts the Gradle build around `path` to run its build. */
  'host.trust': defineRequest({
    actor: 'host',
    request: z.object({ path: z.string().min(1).max(4096) }),
    response: z.object({ root: z.string(), already: z.boolean() }),
    timeoutMs: 15_000,
  }),
  /** The user revokes trust in a project. */
  'host.untrust': defineRequest({
    actor: 'host',
    request: z.object({ root: z.string().min(1).max(4096) }),
    response: z.object({ root: z.string(), removed: z.boolean() }),
    timeoutMs: 15_000,
  }),
  /** The device folders the file tools may use, per serial. */
  'host.storage': defineRequest({
    actor: 'host',
    request: z.object({}),
    response: z.object({ folders: z.record(z.string(), z.array(z.string())), exchange_dir: z.string() }),
    timeoutMs: 10_000,
  }),
  'host.storage_allow': defineRequest({
    actor: 'host',
    request: z.object({ serial: serialSchema, dir: z.string().min(1).max(1024) }),
    response: z.object({ dir: z.string(), added: z.boolean() }),
    timeoutMs: 15_000,
  }),
  /** Revokes one folder of a device, or all of them when `dir` is left out. */
  'host.storage_revoke': defineRequest({
    actor: 'host',
    request: z.object({ serial: serialSchema, dir: z.string().min(1).max(1024).optional() }),
    response: z.object({ removed: z.array(z.string()) }),
    timeoutMs: 15_000,
  }),
  /** The newest entries of the activity log, oldest first. */
  'host.activity': defineRequest({
    actor: 'host',
    request: z.object({ limit: z.number().int().min(1).max(2000).default(200) }),
    response: z.object({ entries: z.array(activityEntrySchema) }),
    timeoutMs: 10_000,
  }),
  /** The standalone `droidbus mcp` servers running now (their records; stale ones are dropped). */
  'host.standalone_sessions': defineRequest({
    actor: 'host',
    request: z.object({}),
    response: z.object({ sessions: z.array(standaloneSessionSchema) }),
    timeoutMs: 10_000,
  }),
};

export const hostPageEvents = {
  /** The user trusted or revoked a project (on the page or through the host). */
  'host.trust_changed': defineEvent(z.object({ root: z.string(), trusted: z.boolean() })),
  /** The user changed a device's allowed folders. */
  'host.storage_changed': defineEvent(z.object({ serial: z.string() })),
};
