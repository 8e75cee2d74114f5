import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListResourcesRequestSchema, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { logger } from '../util/log.js';
import { INVALID_REQUEST, ProtocolError, RESOURCE_NOT_FOUND } from './protocol-error.js';
import type { ResourceDefinition } from './resources.js';
import type { RequestRecord } from './request-record.js';
import { pinnedProjectClosed } from './session.js';
import type { SessionState } from './session.js';

const log = logger('mcp');

/**
 * resources/list and resources/read of one session: a resource is listed when it says it is
 * available (project files only while a pinned session's project is open); reads are recorded.
 */
export function serveResources(
  server: Server,
  session: SessionState,
  resources: readonly ResourceDefinition[],
  recordRequest: (record: RequestRecord) => void,
): void {
  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
    const shown = await Promise.all(
      resources.map(async (r) => {
        try {
          if (r.projectFile && pinnedProjectClosed(session) !== null) {
            return false;
          }
          return (await r.listed?.(session, extra.signal)) ?? true;
        } catch (err) {
          log.warn(`could not tell whether ${r.uri} is available`, { error: String(err) });
          return false;
        }
      }),
    );
    return {
      resources: resources
        .filter((_r, i) => shown[i])
        .map((r) => ({
          uri: r.uri,
          name: r.name,
          title: r.title,
          description: r.description,
          mimeType: r.mimeType,
        })),
    };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const started = performance.now();
    const resource = resources.find((r) => r.uri === request.params.uri);
    const uri = request.params.uri.slice(0, 200);
    const done = (status: RequestRecord['status'], summary: string): void =>
      recordRequest({
        kind: 'resource',
        name: resource?.uri ?? uri,
        durationMs: performance.now() - started,
        status,
        summary,
      });
    if (!resource) {
      done('not_found', 'not found');
      // The spec's resource-not-found code.
      throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`);
    }
    const closed = resource.projectFile ? pinnedProjectClosed(session) : null;
    if (closed !== null) {
      done('invalid_request', closed);
      throw new ProtocolError(INVALID_REQUEST, `${resource.uri}: ${closed}`);
    }
    try {
      const text = await resource.read(session, extra.signal);
      done('ok', `${Buffer.byteLength(text, 'utf8')} bytes of ${resource.mimeType}`);
      return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text }] };
    } catch (err) {
      done('internal_error', err instanceof Error ? err.message : String(err));
      throw err;
    }
  });
}
