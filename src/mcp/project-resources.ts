/**
 * The `android://…` resources: the project info and health report as JSON, and four project files
 * (the application module's manifest and build file, the root build file and the settings file,
 * Kotlin DSL or Groovy). A file is listed and read only when its canonical path is a regular file
 * inside the canonical project root; the project actor does the reading (at most 512 KiB, with a
 * truncation note, invalid UTF-8 as U+FFFD), never this process's JSON-RPC loop.
 */
import { BusError } from '../bus/errors.js';
import type { ProjectFileKind } from '../bus/messages/project.js';
import { INVALID_REQUEST, ProtocolError, RESOURCE_NOT_FOUND } from './protocol-error.js';
import { defineResource, type ResourceDefinition } from './resources.js';
import type { SessionState } from './session.js';
import { healthReport, projectInfo } from './tools/project.js';

/** Listing asks the project actor once for all four files, within this window. */
const LISTING_CACHE_MS = 1_000;

interface FileResource {
  uri: string;
  kind: ProjectFileKind;
  name: string;
  title: string;
  description: string;
  mimeType: string;
}

const FILES: readonly FileResource[] = [
  {
    uri: 'android://manifest',
    kind: 'manifest',
    name: 'manifest',
    title: 'AndroidManifest.xml',
    description: "The application module's src/main/AndroidManifest.xml.",
    mimeType: 'application/xml',
  },
  {
    uri: 'android://app-build-gradle',
    kind: 'app_build_gradle',
    name: 'app-build-gradle',
    title: 'App module build file',
    description: "The application module's build.gradle.kts or build.gradle.",
    mimeType: 'text/plain',
  },
  {
    uri: 'android://build-gradle',
    kind: 'build_gradle',
    name: 'build-gradle',
    title: 'Root build file',
    description: "The project's root build.gradle.kts or build.gradle.",
    mimeType: 'text/plain',
  },
  {
    uri: 'android://gradle-settings',
    kind: 'gradle_settings',
    name: 'gradle-settings',
    title: 'Gradle settings',
    description: "The project's settings.gradle.kts or settings.gradle.",
    mimeType: 'text/plain',
  },
];

function needRoot(session: SessionState): string {
  const root = session.project.root;
  if (root === null) {
    throw new ProtocolError(
      RESOURCE_NOT_FOUND,
      'No Android project is selected, so it has no project files.',
    );
  }
  return root;
}

/** The android://… resources of a session. */
export function projectResources(): ResourceDefinition[] {
  let listing: { at: number; root: string; files: Promise<Map<ProjectFileKind, boolean>> } | null = null;
  const listed = (session: SessionState, signal: AbortSignal): Promise<Map<ProjectFileKind, boolean>> => {
    const root = session.project.root;
    if (root === null) {
      return Promise.resolve(new Map());
    }
    if (listing && listing.root === root && Date.now() - listing.at < LISTING_CACHE_MS) {
      return listing.files;
    }
    const files = session.bus
      .request('project.files', { root }, { signal })
      .then((r) => new Map(r.files.map((f) => [f.kind, f.listed] as const)));
    listing = { at: Date.now(), root, files };
    return files;
  };

  const json = (text: unknown): string => JSON.stringify(text, null, 2);
  const resources: ResourceDefinition[] = [
    defineResource({
      uri: 'android://project-info',
      name: 'project-info',
      title: 'Project info',
      description: 'What get_project_info returns, as JSON.',
      mimeType: 'application/json',
      read: async (session, signal) => json(await projectInfo({ bus: session.bus, session, signal })),
    }),
    defineResource({
      uri: 'android://health',
      name: 'health',
      title: 'Health check',
      description: 'What run_health_check returns, as JSON.',
      mimeType: 'application/json',
      read: async (session, signal) => json(await healthReport({ bus: session.bus, session, signal })),
    }),
  ];
  for (const file of FILES) {
    resources.push(
      defineResource({
        uri: file.uri,
        name: file.name,
        title: file.title,
        description: file.description,
        mimeType: file.mimeType,
        projectFile: true,
        listed: async (session, signal) => (await listed(session, signal)).get(file.kind) ?? false,
        read: async (session, signal) => {
          const root = needRoot(session);
          try {
            const r = await session.bus.request('project.read_file', { root, kind: file.kind }, { signal });
            return r.text;
          } catch (err) {
            if (err instanceof BusError && err.code === 'INVALID') {
              throw new ProtocolError(INVALID_REQUEST, `${file.uri}: ${err.message}`);
            }
            if (err instanceof BusError && err.code === 'NOT_FOUND') {
              throw new ProtocolError(RESOURCE_NOT_FOUND, `${file.uri} is not available: ${err.message}`);
            }
            throw err;
          }
        },
      }),
    );
  }
  return resources;
}
