import { statSync } from 'node:fs';
import { BusError } from '../../bus/errors.js';
import type { AttachedSession } from '../../bus/messages/host.js';
import type { PageProject } from '../../bus/messages/host-page.js';
import { requirePerson } from '../../bus/origin.js';
import { findGradleRoot } from '../../project/gradle-root.js';
import { canonicalProjectRoot, trustProject, untrustProject } from '../../project/trust.js';
import { readActivity } from '../../store/activity-log.js';
import {
  DeviceStorageError,
  allowDeviceDir,
  listDeviceStorage,
  normalizeAllowedDir,
  revokeDeviceDir,
} from '../../store/device-storage.js';
import { exchangeDir } from '../../store/exchange.js';
import { listSessionRecords } from '../../store/session-records.js';
import { readSettings } from '../../store/settings.js';
import type { HostHandlers } from '../host-endpoint.js';
import type { EventOf } from '../../bus/registry.js';
import type { hostPageRequests } from '../../bus/messages/host-page.js';

/** What the page's host requests read from the running host. */
export interface PageRequestDeps {
  /** The project the host has open. */
  project(): string | null;
  /** The attached and HTTP sessions. */
  sessions(): AttachedSession[];
  /** A fresh one-time login link, or null when the host serves no page. */
  pageLink(): { url: string; expires_at: string } | null;
  publish<E extends 'host.trust_changed' | 'host.storage_changed'>(topic: E, payload: EventOf<E>): void;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The projects the page lists: trusted ones, the host's open project, and every session's. */
export function pageProjects(host: string | null, sessions: AttachedSession[]): PageProject[] {
  const trusted = readSettings().trusted_projects;
  const byRoot = new Map<string, PageProject>();
  const add = (root: string, source: PageProject['sources'][number]): void => {
    const canonical = canonicalProjectRoot(root);
    const entry = byRoot.get(canonical) ?? {
      root: canonical,
      trusted: trusted.includes(canonical),
      exists: isDirectory(canonical) && findGradleRoot(canonical) === canonical,
      sources: [],
    };
    if (!entry.sources.includes(source)) {
      entry.sources.push(source);
    }
    byRoot.set(canonical, entry);
  };
  if (host) {
    add(host, 'host');
  }
  for (const s of sessions) {
    if (s.pinned_project) {
      add(s.pinned_project, 'session');
    }
  }
  for (const r of listSessionRecords()) {
    if (r.project) {
      add(r.project, 'session');
    }
  }
  for (const root of trusted) {
    add(root, 'trusted');
  }
  return [...byRoot.values()];
}

/** The Gradle build to trust for a folder the user named, as `droidbus trust` finds it. */
export function trustTarget(given: string): string {
  const canonical = canonicalProjectRoot(given);
  if (!isDirectory(canonical)) {
    throw new BusError('INVALID', `${given} is not a folder`);
  }
  const gradleRoot = findGradleRoot(canonical);
  if (gradleRoot === null) {
    throw new BusError(
      'INVALID',
      `${canonical} is not in a Gradle build (no settings.gradle or settings.gradle.kts at or above it)`,
    );
  }
  return gradleRoot;
}

async function storageCall<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof DeviceStorageError) {
      throw new BusError('INVALID', err.message);
    }
    throw err;
  }
}

/**
 * The host's handlers for the page's requests (`src/bus/messages/host-page.ts`). Each refuses
 * agents first; the decisions go to the same store functions the CLI uses.
 */
export function pageRequestHandlers(deps: PageRequestDeps): HostHandlers<keyof typeof hostPageRequests> {
  return {
    'host.page_link': (_payload, origin) => {
      requirePerson(origin, 'opens the host page');
      const link = deps.pageLink();
      if (!link) {
        throw new BusError('UNAVAILABLE', 'this droidbus host serves no page (it was started with --no-ui)');
      }
      return link;
    },
    'host.projects': (_payload, origin) => {
      requirePerson(origin, 'reviews project trust');
      return { projects: pageProjects(deps.project(), deps.sessions()) };
    },
    'host.trust': async (payload, origin) => {
      requirePerson(origin, 'trusts a project');
      const root = trustTarget(payload.path);
      const already = readSettings().trusted_projects.includes(root);
      await trustProject(root);
      deps.publish('host.trust_changed', { root, trusted: true });
      return { root, already };
    },
    'host.untrust': async (payload, origin) => {
      requirePerson(origin, 'revokes trust in a project');
      const given = payload.root;
      const canonical = canonicalProjectRoot(given);
      const gradleRoot = isDirectory(canonical) ? findGradleRoot(canonical) : null;
      for (const root of new Set([canonical, gradleRoot].filter((p): p is string => p !== null))) {
        if (await untrustProject(root)) {
          deps.publish('host.trust_changed', { root, trusted: false });
          return { root, removed: true };
        }
      }
      return { root: canonical, removed: false };
    },
    'host.storage': (_payload, origin) => {
      requirePerson(origin, 'reviews device folders');
      return { folders: listDeviceStorage(), exchange_dir: exchangeDir() };
    },
    'host.storage_allow': (payload, origin) =>
      storageCall(async () => {
        requirePerson(origin, 'allows a device folder');
        const { serial, dir } = payload;
        const added = await allowDeviceDir(serial, dir);
        deps.publish('host.storage_changed', { serial });
        return { dir: normalizeAllowedDir(dir), added };
      }),
    'host.storage_revoke': (payload, origin) =>
      storageCall(async () => {
        requirePerson(origin, 'revokes a device folder');
        const { serial, dir } = payload;
        const removed = await revokeDeviceDir(serial, dir);
        deps.publish('host.storage_changed', { serial });
        return { removed };
      }),
    'host.activity': (payload, origin) => {
      requirePerson(origin, 'reads the activity log here');
      return { entries: readActivity(payload.limit) };
    },
    'host.standalone_sessions': (_payload, origin) => {
      requirePerson(origin, 'lists standalone sessions here');
      return {
        sessions: listSessionRecords().map((r) => ({
          pid: r.pid,
          session_id: r.session_id,
          started_at: r.started_at,
          project: r.project,
          reason: r.reason,
          version: r.version ?? null,
          client_name: r.client_name ?? null,
        })),
      };
    },
  };
}
