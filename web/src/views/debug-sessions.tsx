import { useEffect, useState } from 'preact/hooks';
import { busUntyped, onEvent } from '../api';
import { usePage } from '../app';
import { ago, originLabel, when } from '../format';
import { useAction, useEvent } from '../hooks';

/*
 * The debug-session requests (`sessions.list`, `sessions.get`, `sessions.compare`) belong to the
 * sessions actor, which is not in every droidbus build this page ships with: their shapes are
 * described here (the fields the view reads) and sent untyped; the host's allow-list decides.
 */

interface Counts {
  launches: number;
  crashes: number;
  anrs: number;
  exits: number;
  stops: number;
  agent_actions: number;
}
interface SessionSummary {
  id: string;
  state: string;
  state_reason: string | null;
  package: string;
  device: string;
  device_model: string | null;
  build_label: string;
  apk_sha256: string;
  opened_at: string;
  closed_at: string | null;
  last_event_at: string;
  recorded_by: string;
  counts: Counts;
}
interface SessionList {
  sessions: SessionSummary[];
  matched: number;
  total: number;
  streaming: string[];
}
interface SessionDetail {
  session: SessionSummary & {
    install: { at: string; by: string; version_name: string | null; build_id: string | null };
    build: {
      id: string;
      task: string;
      variant: string | null;
      source: { commit: string | null; branch: string | null } | null;
    } | null;
  };
  timeline: { seq: number; at: string; kind: string; by: string; summary: string }[];
  next_before_seq: number | null;
  crashes: {
    seq: number;
    at: string;
    kind: string;
    summary: string;
    attribution: { method: string; verified: boolean };
  }[];
}
interface Diff {
  field: string;
  from: unknown;
  to: unknown;
}
interface Comparison {
  chosen_by: string | null;
  from: SessionSummary;
  to: SessionSummary;
  differences: Diff[];
  launch: { comparable: boolean; delta_ms: number | null; note: string | null };
  crashes: { new_in_to: string[]; gone_in_to: string[] };
  provenance: {
    same_commit: boolean | null;
    notes: string[];
    changed_build_files: { path: string; change: string }[];
  } | null;
  not_recorded: string[];
}

const STATES = ['', 'open', 'closed', 'superseded', 'ended', 'idle'];

function show(v: unknown): string {
  return v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function Timeline({ id }: { id: string }) {
  const [detail, setDetail] = useState<SessionDetail | null>(null);
  const [older, setOlder] = useState<SessionDetail['timeline']>([]);
  const action = useAction();
  const load = (): void =>
    void action.run(async () => {
      setDetail(await busUntyped<SessionDetail>('sessions.get', { session_id: id, max_events: 100 }));
      setOlder([]);
    });
  useEffect(load, [id]);
  useEvent('logcat.crash', load);
  if (!detail) {
    return <p class="muted">{action.error ?? 'Reading the session…'}</p>;
  }
  const s = detail.session;
  const events = [...older, ...detail.timeline];
  const cursor = older.length > 0 ? null : detail.next_before_seq;
  return (
    <section class="panel" aria-labelledby="ds-h">
      <h3 id="ds-h">
        {s.package} on {s.device_model ?? s.device} — {s.state}
      </h3>
      <dl class="facts">
        <dt>Installed</dt>
        <dd>
          {when(s.install.at)} by {s.install.by}
          {s.install.version_name ? `, version ${s.install.version_name}` : ''}
        </dd>
        <dt>Build</dt>
        <dd>
          {s.build_label}
          {s.build?.source?.commit
            ? ` · ${s.build.source.commit.slice(0, 10)}${s.build.source.branch ? ` on ${s.build.source.branch}` : ''}`
            : ''}
        </dd>
        <dt>Counts</dt>
        <dd>
          {s.counts.launches} launches · {s.counts.crashes} crashes · {s.counts.anrs} ANRs · {s.counts.exits}{' '}
          exits · {s.counts.agent_actions} agent actions
        </dd>
      </dl>
      {detail.crashes.length > 0 && (
        <>
          <h4>Crashes</h4>
          <ul class="timeline">
            {detail.crashes.map((c) => (
              <li key={c.seq} class="ev crash">
                <time dateTime={c.at}>{when(c.at)}</time> <strong>{c.kind}</strong> {c.summary}{' '}
                <span class="muted small">
                  ({c.attribution.method}
                  {c.attribution.verified ? ', verified' : ''})
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      <h4>Timeline</h4>
      {cursor !== null && (
        <button
          type="button"
          disabled={action.busy}
          onClick={() =>
            void action.run(async () => {
              const page = await busUntyped<SessionDetail>('sessions.get', {
                session_id: id,
                max_events: 500,
                before_seq: cursor,
              });
              setOlder(page.timeline);
            })
          }
        >
          Older events
        </button>
      )}
      <ol class="timeline" aria-label="Session timeline">
        {events.map((e) => (
          <li key={e.seq} class={`ev ${e.kind}`}>
            <time dateTime={e.at}>{when(e.at)}</time> <strong>{e.kind}</strong> {e.summary}
            {!e.summary.includes(e.by) && <span class="muted small"> — {e.by}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}

function ComparePanel({ from, to }: { from: string | null; to: string | null }) {
  const [result, setResult] = useState<Comparison | null>(null);
  const action = useAction();
  useEffect(() => {
    setResult(null);
    void action.run(async () =>
      setResult(await busUntyped<Comparison>('sessions.compare', from && to ? { from, to } : {})),
    );
  }, [from, to]);
  return (
    <section class="panel" aria-labelledby="cmp-h" aria-live="polite">
      <h3 id="cmp-h">Compare</h3>
      {action.error && <p class="error">{action.error}</p>}
      {result && (
        <>
          <p>
            <code>{result.from.id}</code> ({result.from.build_label}) → <code>{result.to.id}</code> (
            {result.to.build_label})
            {result.chosen_by ? <span class="muted small"> — {result.chosen_by}</span> : null}
          </p>
          {result.differences.length > 0 && (
            <table class="grid" aria-label="Differences">
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">From</th>
                  <th scope="col">To</th>
                </tr>
              </thead>
              <tbody>
                {result.differences.map((d) => (
                  <tr key={d.field}>
                    <th scope="row">{d.field}</th>
                    <td>{show(d.from)}</td>
                    <td>{show(d.to)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p>
            Launch:{' '}
            {result.launch.comparable && result.launch.delta_ms !== null
              ? `${result.launch.delta_ms > 0 ? '+' : ''}${result.launch.delta_ms} ms`
              : (result.launch.note ?? 'not comparable')}
          </p>
          <p>
            New crashes: {result.crashes.new_in_to.join(', ') || 'none'} · gone:{' '}
            {result.crashes.gone_in_to.join(', ') || 'none'}
          </p>
          {result.provenance && (
            <p>
              {result.provenance.same_commit === true
                ? 'Same commit. '
                : result.provenance.same_commit === false
                  ? 'Different commits. '
                  : ''}
              {result.provenance.changed_build_files.map((f) => `${f.path} ${f.change}`).join(', ')}
              {result.provenance.notes.map((n) => ` ${n}`)}
            </p>
          )}
          {result.not_recorded.length > 0 && (
            <p class="muted small">Not recorded: {result.not_recorded.join(', ')}</p>
          )}
        </>
      )}
    </section>
  );
}

function RecordedSessions() {
  const [state, setState] = useState('');
  const [crashing, setCrashing] = useState(false);
  const [list, setList] = useState<SessionList | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [comparing, setComparing] = useState<{ from: string | null; to: string | null } | null>(null);
  const action = useAction();
  const load = (): void =>
    void action.run(async () =>
      setList(
        await busUntyped<SessionList>('sessions.list', {
          limit: 50,
          only_crashing: crashing,
          ...(state ? { state } : {}),
        }),
      ),
    );
  useEffect(load, [state, crashing]);
  useEvent('app.installed', load);
  useEvent('logcat.crash', load);
  const toggle = (id: string): void =>
    setPicked((cur) => (cur.includes(id) ? cur.filter((x) => x !== id) : [...cur, id].slice(-2)));
  return (
    <>
      <div class="toolbar">
        <label>
          State{' '}
          <select value={state} onChange={(e) => setState(e.currentTarget.value)}>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s || 'any'}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={crashing} onChange={(e) => setCrashing(e.currentTarget.checked)} />{' '}
          Only crashing
        </label>
        <button
          type="button"
          disabled={picked.length === 1}
          onClick={() =>
            setComparing(
              picked.length === 2 ? { from: picked[0]!, to: picked[1]! } : { from: null, to: null },
            )
          }
        >
          {picked.length === 2 ? 'Compare the two picked' : 'Compare the default pair'}
        </button>
      </div>
      {action.error && <p class="error">{action.error}</p>}
      {list && list.streaming.length === 0 && (
        <p class="muted small">No device streams logcat: crashes are recorded only from streamed devices.</p>
      )}
      {list && list.sessions.length === 0 ? (
        <p class="empty">No debug session yet: one opens when droidbus installs an app on a device.</p>
      ) : (
        list && (
          <table class="grid" aria-label="Debug sessions">
            <thead>
              <tr>
                <th scope="col">Pick</th>
                <th scope="col">Session</th>
                <th scope="col">State</th>
                <th scope="col">Build</th>
                <th scope="col">Opened</th>
                <th scope="col">Launches / crashes / ANRs</th>
              </tr>
            </thead>
            <tbody>
              {list.sessions.map((s) => (
                <tr key={s.id} class={s.id === selected ? 'selected' : undefined}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Pick ${s.id} to compare`}
                      checked={picked.includes(s.id)}
                      onChange={() => toggle(s.id)}
                    />
                  </td>
                  <th scope="row">
                    <button type="button" class="link" onClick={() => setSelected(s.id)}>
                      {s.package}
                    </button>
                    <div class="muted small">
                      {s.device_model ?? s.device} · <code>{s.id}</code>
                    </div>
                  </th>
                  <td>
                    {s.state}
                    {s.state_reason && <div class="muted small">{s.state_reason}</div>}
                  </td>
                  <td>{s.build_label}</td>
                  <td>{ago(s.opened_at)}</td>
                  <td>
                    {s.counts.launches} / {s.counts.crashes} / {s.counts.anrs}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      )}
      {comparing && <ComparePanel from={comparing.from} to={comparing.to} />}
      {selected && <Timeline id={selected} />}
    </>
  );
}

interface AppEvent {
  at: string;
  kind: 'installed' | 'launched' | 'stopped' | 'crash';
  device: string | null;
  package: string | null;
  text: string;
}

/** What happened to apps since the page opened, kept across view switches. */
const seen: AppEvent[] = [];
const changed = new Set<() => void>();
const push = (e: AppEvent): void => {
  seen.push(e);
  if (seen.length > 500) {
    seen.shift();
  }
  for (const fn of changed) {
    fn();
  }
};
onEvent('app.installed', (p) =>
  push({
    at: p.installed_at,
    kind: 'installed',
    device: p.device,
    package: p.package,
    text: `installed ${p.version_name ?? ''} (${p.apk_sha256.slice(0, 12)}…)${p.build_id ? ` from build ${p.build_id}` : ''} by ${originLabel(p.installed_by)}`,
  }),
);
onEvent('app.launched', (p) =>
  push({
    at: p.at,
    kind: 'launched',
    device: p.device,
    package: p.package,
    text: `${p.restart ? 'restarted' : 'launched'} ${p.activity ?? ''}${p.total_ms !== null ? ` in ${p.total_ms} ms` : ''} by ${originLabel(p.by)}`,
  }),
);
onEvent('app.stopped', (p) =>
  push({
    at: p.at,
    kind: 'stopped',
    device: p.device,
    package: p.package,
    text: `${p.clear_data ? 'data cleared' : 'stopped'} by ${originLabel(p.by)}`,
  }),
);
onEvent('logcat.crash', (p) =>
  push({
    at: new Date(p.received_at).toISOString(),
    kind: 'crash',
    device: p.device,
    package: p.package,
    text: `${p.kind}: ${p.summary}`,
  }),
);

function LiveAppEvents() {
  const [, setTick] = useState(0);
  useEffect(() => {
    const fn = (): void => setTick((t) => t + 1);
    changed.add(fn);
    return () => {
      changed.delete(fn);
    };
  }, []);
  const events = [...seen].reverse();
  return events.length === 0 ? (
    <p class="empty">Nothing yet: install or launch an app, or start logcat on a device.</p>
  ) : (
    <ol class="timeline" aria-label="App events">
      {events.map((e, i) => (
        <li key={`${e.at}-${i}`} class={`ev ${e.kind}`}>
          <time dateTime={e.at}>{when(e.at)}</time> <strong>{e.package ?? '?'}</strong> on{' '}
          <code>{e.device ?? '?'}</code>: {e.text}
        </li>
      ))}
    </ol>
  );
}

/**
 * Debug sessions (one install of an app on a device and what happened to it): the list, a
 * session's timeline, two compared. A droidbus without the sessions actor shows the installs,
 * launches, stops and crashes the bus reported since the page opened instead.
 */
export function DebugSessionsView() {
  const { meta } = usePage();
  const available = ['sessions.list', 'sessions.get', 'sessions.compare'].every((t) =>
    meta?.requests.includes(t),
  );
  if (available) {
    return <RecordedSessions />;
  }
  return (
    <section>
      <p class="banner">
        This droidbus does not record debug sessions. Below: what happened to apps on devices since this page
        opened (installs, launches, stops, crashes), live from the bus.
      </p>
      <LiveAppEvents />
    </section>
  );
}
