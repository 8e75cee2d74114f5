/** What happened in one prompt get or resource read, for the activity log. */
export interface RequestRecord {
  kind: 'prompt' | 'resource';
  /** The prompt's name or the resource's URI. */
  name: string;
  durationMs: number;
  status: 'ok' | 'invalid_params' | 'invalid_request' | 'not_found' | 'internal_error';
  summary: string;
}
