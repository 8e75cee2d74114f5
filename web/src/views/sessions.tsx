import { usePage } from '../page-context';
import { ago } from '../format';
import { useBus, useEvent, useInterval } from '../hooks';

interface Row {
  key: string;
  kind: 'attached' | 'HTTP' | 'standalone';
  client: string;
  project: string;
  toolsets: string;
  version: string | null;
  detail: string;
  since: string;
  mismatch: string | null;
}

/** What to do when a session runs another droidbus than the host (after an update). */
function mismatchOf(version: string | null, hostVersion: string, pid: number): string | null {
  if (version === hostVersion) {
    return null;
  }
  return `runs droidbus ${version ?? '(an older release that does not record its version)'}, the host runs ${hostVersion}: restart the AI client that started it (pid ${pid}) so it starts the current droidbus.`;
}

/** Every MCP session: attached and HTTP ones from the host, standalone ones from their records. */
export function SessionsView() {
  const { info } = usePage();
  const standalone = useBus('host.standalone_sessions', {});
  useInterval(standalone.reload, 5_000);
  useEvent('host.sessions', standalone.reload);
  const hostVersion = info?.version ?? '?';
  const rows: Row[] = [];
  for (const s of info?.sessions ?? []) {
    rows.push({
      key: s.session_id,
      kind: s.kind === 'http' ? 'HTTP' : 'attached',
      client: s.client_name
        ? `${s.client_name}${s.client_version ? ` ${s.client_version}` : ''}`
        : 'client not known yet',
      project: s.pinned_project ?? `${info?.project ?? 'none'} (follows the host)`,
      toolsets: s.toolsets?.join(', ') ?? 'default',
      version: s.version,
      detail: s.kind === 'http' ? `from ${s.remote ?? '?'}, auth ${s.auth ?? '?'}` : `pid ${s.pid}`,
      since: s.attached_at,
      mismatch: s.kind === 'http' ? null : mismatchOf(s.version, hostVersion, s.pid),
    });
  }
  for (const r of standalone.data?.sessions ?? []) {
    rows.push({
      key: r.session_id,
      kind: 'standalone',
      client: r.client_name ?? 'client not known yet',
      project: r.project ?? 'none',
      toolsets: '—',
      version: r.version,
      detail: `pid ${r.pid}; ${r.reason} — its builds and logcat are not shown here`,
      since: r.started_at,
      mismatch: mismatchOf(r.version, hostVersion, r.pid),
    });
  }
  const mismatches = rows.filter((r) => r.mismatch !== null).length;
  return (
    <section>
      <p class="muted">
        The host serves {info?.sessions.filter((s) => s.kind === 'attach').length ?? 0} of at most{' '}
        {info?.max_sessions ?? 16} attached sessions{info?.http ? `, and HTTP MCP at ${info.http.url}` : ''}.
      </p>
      {mismatches > 0 && (
        <p class="banner warn" role="status">
          {mismatches} session{mismatches > 1 ? 's run' : ' runs'} another droidbus version than the host:
          restart the AI client{mismatches > 1 ? 's' : ''} flagged below.
        </p>
      )}
      {rows.length === 0 ? (
        <p class="empty">
          No MCP session is running. Agents attach when they start droidbus mcp while this host runs.
        </p>
      ) : (
        <table class="grid" aria-label="MCP sessions">
          <thead>
            <tr>
              <th scope="col">Mode</th>
              <th scope="col">Client</th>
              <th scope="col">Project</th>
              <th scope="col">Toolsets</th>
              <th scope="col">droidbus</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} class={r.mismatch ? 'flagged' : undefined}>
                <td>{r.kind}</td>
                <th scope="row">{r.client}</th>
                <td>
                  <code class="path">{r.project}</code>
                </td>
                <td>{r.toolsets}</td>
                <td>
                  {r.version ?? '?'}
                  {r.mismatch && (
                    <p class="hint warn">
                      <strong>Version mismatch:</strong> {r.mismatch}
                    </p>
                  )}
                </td>
                <td>
                  {r.detail}
                  <div class="muted small">since {ago(r.since)}</div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
