import { useState } from 'preact/hooks';
import { duration, when } from '../format';
import { useBus, useInterval } from '../hooks';

/** The activity log (mcp-activity.jsonl): tool calls with their duration and status, newest first. */
export function ActivityView() {
  const activity = useBus('host.activity', { limit: 500 });
  const [follow, setFollow] = useState(true);
  const [kind, setKind] = useState<'tool' | 'all'>('tool');
  useInterval(activity.reload, 3_000, follow);
  const entries = [...(activity.data?.entries ?? [])]
    .reverse()
    .filter((e) => kind === 'all' || e.kind === 'tool')
    .slice(0, 300);
  return (
    <section>
      <div class="toolbar">
        <label>
          Show{' '}
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value as 'tool' | 'all')}>
            <option value="tool">tool calls</option>
            <option value="all">everything (lifecycle, prompts, resources)</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.currentTarget.checked)} />{' '}
          Refresh every 3 s
        </label>
        <button type="button" onClick={activity.reload}>
          Refresh
        </button>
      </div>
      <p class="muted small">
        Every droidbus process (this host and standalone servers) appends here; arguments are never logged and
        summaries are redacted.
      </p>
      {activity.error && <p class="error">{activity.error.message}</p>}
      {entries.length === 0 ? (
        <p class="empty">Nothing recorded yet.</p>
      ) : (
        <table class="grid" aria-label="Recent activity">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Session</th>
              <th scope="col">{kind === 'tool' ? 'Tool' : 'Name'}</th>
              <th scope="col">Duration</th>
              <th scope="col">Status</th>
              <th scope="col">Summary</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e, i) => (
              <tr key={`${e.ts}-${i}`}>
                <td>{when(e.ts)}</td>
                <td>
                  <code title={e.session ?? undefined}>
                    {e.session ? e.session.slice(0, 8) : `pid ${e.pid}`}
                  </code>
                </td>
                <th scope="row">
                  {kind === 'all' && <span class="muted small">{e.kind} </span>}
                  {e.name}
                </th>
                <td>{duration(e.duration_ms)}</td>
                <td class={`status ${e.status === 'ok' ? 'ok' : 'bad'}`}>{e.status}</td>
                <td class="summary">{e.summary}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
