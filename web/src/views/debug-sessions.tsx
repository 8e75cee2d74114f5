import { useEffect, useRef, useState } from 'preact/hooks';
import { BusError, bus } from '../api';
import type { RequestOf, ResponseOf } from '../api';
import { ago, when } from '../format';
import { useAction, useBus, useEvent, useInterval } from '../hooks';

type SessionState = NonNullable<RequestOf<'sessions.list'>['state']>;
type Detail = ResponseOf<'sessions.get'>;
type Entry = Detail['timeline'][number];
type Comparison = ResponseOf<'sessions.compare'>;
type Exported = ResponseOf<'sessions.export'>;

const STATES: readonly (SessionState | '')[] = ['', 'open', 'idle', 'superseded', 'closed', 'ended'];

/** Timeline events one read asks for (the newest); "Older events" pages back 500 at a time. */
const NEWEST = 100;
const OLDER = 500;
/** The most timeline events the view holds (the oldest shown go first, "Older events" reads them again). */
const MAX_SHOWN = 2_000;

/**
 * The view reads again on the bus events that change sessions and every few seconds while shown:
 * the sessions actor records an event after the page hears it (a crash only once its log lines are
 * read, its exit ~1.5 s later), and standalone droidbus servers record into the same files without
 * telling this host's bus.
 */
const REFRESH_MS = 3_000;
/** Events that come in bursts (crashes, devices) coalesce into one read. */
const EVENT_READ_DELAY_MS = 300;

function useSessionChanges(read: () => void): void {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const soon = (): void => {
    timer.current ??= setTimeout(() => {
      timer.current = null;
      read();
    }, EVENT_READ_DELAY_MS);
  };
  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
      }
    },
    [],
  );
  useEvent('app.installed', soon);
  useEvent('app.launched', soon);
  useEvent('app.stopped', soon);
  useEvent('logcat.crash', soon);
  useEvent('device.state', soon);
  useEvent('page.resync', read);
  useInterval(read, REFRESH_MS);
}

function show(v: unknown): string {
  return v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** A note the comparison wrote as a clause, as a sentence of its own. */
function sentence(note: string): string {
  return `${note.charAt(0).toUpperCase()}${note.slice(1)}${/[.!?]$/.test(note) ? '' : '.'}`;
}

function errorText(err: unknown): string {
  return err instanceof BusError ? err.message : String(err);
}

/** The events shown, oldest first, and the `before_seq` that reads the page before them. */
interface Shown {
  events: Entry[];
  cursor: number | null;
}

/**
 * The newest page merged into what is shown: older events the person paged in stay, unless more
 * events arrived since the last read than one page holds (then the newest page starts over).
 */
function mergeNewest(shown: Shown | null, page: Detail): Shown {
  const first = page.timeline[0];
  const last = shown?.events.at(-1);
  if (!shown || !first || !last || first.seq > last.seq + 1) {
    return { events: page.timeline, cursor: page.next_before_seq };
  }
  const events = [...shown.events.filter((e) => e.seq < first.seq), ...page.timeline];
  if (events.length > MAX_SHOWN) {
    const kept = events.slice(-MAX_SHOWN);
    return { events: kept, cursor: kept[0]!.seq };
  }
  return { events, cursor: shown.cursor };
}

/** What a session is: its install, build and counts. */
function SessionFacts({ s }: { s: Detail['session'] }) {
  return (
    <dl class="facts">
      <dt>Session</dt>
      <dd>
        <code>{s.id}</code> on <code>{s.device}</code>
        {s.state_reason && <span class="muted small"> — {s.state_reason}</span>}
      </dd>
      <dt>Installed</dt>
      <dd>
        {when(s.install.at)} by {s.install.by}
        {s.install.version_name ? `, version ${s.install.version_name}` : ''}
      </dd>
      <dt>Build</dt>
      <dd>
        {s.build_label}
        {s.build?.source?.commit
          ? ` · ${s.build.source.commit.slice(0, 10)}${s.build.source.branch ? ` on ${s.build.source.branch}` : ''}${s.build.source.uncommitted_changes ? ' with uncommitted changes' : ''}`
          : ''}
      </dd>
      <dt>Counts</dt>
      <dd>
        {s.counts.launches} launches · {s.counts.crashes} crashes · {s.counts.anrs} ANRs · {s.counts.exits}{' '}
        exits · {s.counts.stops} stops · {s.counts.agent_actions} agent actions
        {s.dropped_events > 0 ? ` · ${s.dropped_events} oldest events dropped` : ''}
      </dd>
    </dl>
  );
}

/** A session's crashes and ANRs, each with how it was tied to the install. */
function SessionCrashes({ crashes }: { crashes: Detail['crashes'] }) {
  if (crashes.length === 0) {
    return null;
  }
  return (
    <>
      <h4>Crashes</h4>
      <ul class="timeline" aria-label="Session crashes">
        {crashes.map((c) => (
          <li key={c.seq} class="ev crash">
            <time dateTime={c.at}>{when(c.at)}</time> <strong>{c.kind}</strong> {c.summary}{' '}
            <span class="muted small" title={c.attribution.reason}>
              ({c.attribution.method === 'install_record' ? 'this install' : 'unattributed'}
              {c.attribution.verified ? ', verified' : ', not verified'}: {c.attribution.reason})
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

function Timeline({ id }: { id: string }) {
  const [detail, setDetail] = useState<Detail | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [error, setError] = useState<string | null>(null);
  const older = useAction();
  const current = useRef(id);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const read = (): void => {
    const asked = id;
    bus('sessions.get', { session_id: asked, max_events: NEWEST }).then(
      (r) => {
        if (current.current === asked) {
          setDetail(r);
          setShown((s) => mergeNewest(s, r));
          setError(null);
        }
      },
      (err: unknown) => current.current === asked && setError(errorText(err)),
    );
  };
  useEffect(() => {
    current.current = id;
    setDetail(null);
    setShown(null);
    setError(null);
    read();
  }, [id]);
  useEffect(() => {
    if (detail) {
      headingRef.current?.focus();
    }
  }, [detail?.session.id]);
  useSessionChanges(read);
  if (!detail || !shown) {
    return <p class="muted">{error ?? 'Reading the session…'}</p>;
  }
  const s = detail.session;
  const cursor = shown.cursor;
  return (
    <section class="panel" aria-labelledby="ds-h">
      <h3 id="ds-h" tabIndex={-1} ref={headingRef}>
        {s.package} on {s.avd_name ?? s.device_model ?? s.device} — {s.state}
      </h3>
      {error && <p class="error">{error}</p>}
      <SessionFacts s={s} />
      {!detail.logcat_streaming && (s.state === 'open' || s.state === 'idle') && (
        <p class="muted small">
          This device's logcat is not streamed: crashes are recorded only while droidbus streams it (Logcat
          view, or an agent's start_logcat).
        </p>
      )}
      <SessionCrashes crashes={detail.crashes} />
      <ExportPanel id={s.id} />
      <h4>Timeline</h4>
      {cursor !== null && (
        <button
          type="button"
          disabled={older.busy}
          onClick={() =>
            void older.run(async () => {
              const page = await bus('sessions.get', {
                session_id: id,
                max_events: OLDER,
                before_seq: cursor,
              });
              setShown((cur) => {
                const oldest = cur?.events[0]?.seq ?? Infinity;
                return {
                  events: [...page.timeline.filter((e) => e.seq < oldest), ...(cur?.events ?? [])],
                  cursor: page.next_before_seq,
                };
              });
            })
          }
        >
          Older events
        </button>
      )}
      {older.error && <p class="error">{older.error}</p>}
      <ol class="timeline" aria-label="Session timeline">
        {shown.events.map((e) => (
          <li key={e.seq} class={`ev ${e.kind}`} data-kind={e.kind}>
            <time dateTime={e.at}>{when(e.at)}</time> <strong>{e.kind}</strong> {e.summary}
            {!e.summary.includes(e.by) && <span class="muted small"> — {e.by}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The session's UI steps as a Maestro flow (issue 59): shown, and saved as a file. */
function ExportPanel({ id }: { id: string }) {
  const [flow, setFlow] = useState<Exported | null>(null);
  const action = useAction();
  useEffect(() => setFlow(null), [id]);
  const href = flow ? URL.createObjectURL(new Blob([flow.yaml], { type: 'application/yaml' })) : null;
  useEffect(() => () => (href ? URL.revokeObjectURL(href) : undefined), [href]);
  return (
    <>
      <h4>As a test</h4>
      <button
        type="button"
        disabled={action.busy}
        onClick={() => void action.run(async () => setFlow(await bus('sessions.export', { session_id: id })))}
      >
        Export as a Maestro flow
      </button>
      {action.error && <p class="error">{action.error}</p>}
      {flow && (
        <div aria-label="Maestro flow">
          <p class="muted small">
            {flow.commands} commands
            {flow.variables.length > 0 &&
              `; give ${flow.variables.map((v) => v.name).join(', ')} when running (password fields, never recorded)`}
            . Run it with <code>droidbus flow run</code> or <code>maestro test</code>.{' '}
            {href && (
              <a href={href} download={`${flow.session_id}.yaml`}>
                Save {flow.session_id}.yaml
              </a>
            )}
          </p>
          <pre class="flow">{flow.yaml}</pre>
        </div>
      )}
    </>
  );
}

function ComparePanel({ from, to, asked }: { from: string | null; to: string | null; asked: number }) {
  const compared = useBus('sessions.compare', from && to ? { from, to } : {}, [from, to, asked]);
  const r: Comparison | null = compared.data;
  return (
    <section class="panel" aria-labelledby="cmp-h" aria-live="polite">
      <h3 id="cmp-h">Compare</h3>
      {compared.error && <p class="error">{compared.error.message}</p>}
      {r && (
        <>
          <p>
            <code>{r.from.id}</code> ({r.from.build_label}) → <code>{r.to.id}</code> ({r.to.build_label})
            {r.chosen_by ? <span class="muted small"> — {r.chosen_by}</span> : null}
          </p>
          {r.differences.length > 0 ? (
            <table class="grid" aria-label="Differences">
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">From</th>
                  <th scope="col">To</th>
                </tr>
              </thead>
              <tbody>
                {r.differences.map((d) => (
                  <tr key={d.field}>
                    <th scope="row">{d.field}</th>
                    <td>{show(d.from)}</td>
                    <td>{show(d.to)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>Same build, package and device.</p>
          )}
          <p>
            Launch:{' '}
            {r.launch.comparable && r.launch.delta_ms !== null
              ? `${r.launch.from?.total_ms ?? r.launch.from?.displayed_ms} ms → ${r.launch.to?.total_ms ?? r.launch.to?.displayed_ms} ms (${r.launch.delta_ms > 0 ? '+' : ''}${r.launch.delta_ms} ms)`
              : (r.launch.note ?? 'not comparable')}
          </p>
          <p>
            New crashes: {r.crashes.new_in_to.join(', ') || 'none'} · gone:{' '}
            {r.crashes.gone_in_to.join(', ') || 'none'}
          </p>
          {r.provenance && (
            <p>
              {r.provenance.same_commit === true
                ? 'Same commit. '
                : r.provenance.same_commit === false
                  ? 'Different commits. '
                  : ''}
              {r.provenance.changed_build_files.length > 0 &&
                `Build files: ${r.provenance.changed_build_files.map((f) => `${f.path} ${f.change}`).join(', ')}. `}
              {r.provenance.notes.map((n) => `${sentence(n)} `)}
            </p>
          )}
          {r.not_recorded.length > 0 && <p class="muted small">Not recorded: {r.not_recorded.join('; ')}</p>}
        </>
      )}
    </section>
  );
}

/**
 * Debug sessions (one install of an app on a device and what happened to it until the next): the
 * sessions actor's list, a session's timeline and crashes, and two sessions compared.
 */
export function DebugSessionsView() {
  const [state, setState] = useState<SessionState | ''>('');
  const [crashing, setCrashing] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [comparing, setComparing] = useState<{
    from: string | null;
    to: string | null;
    asked: number;
  } | null>(null);
  const list = useBus('sessions.list', { limit: 50, only_crashing: crashing, ...(state ? { state } : {}) }, [
    state,
    crashing,
  ]);
  useSessionChanges(list.reload);
  const toggle = (id: string): void =>
    setPicked((cur) => (cur.includes(id) ? cur.filter((x) => x !== id) : [...cur, id].slice(-2)));
  const sessions = list.data?.sessions ?? [];
  return (
    <section>
      <div class="toolbar">
        <label>
          State{' '}
          <select value={state} onChange={(e) => setState(e.currentTarget.value as SessionState | '')}>
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
            setComparing((cur) => ({
              from: picked.length === 2 ? picked[0]! : null,
              to: picked.length === 2 ? picked[1]! : null,
              asked: (cur?.asked ?? 0) + 1,
            }))
          }
        >
          {picked.length === 2 ? 'Compare the two picked' : 'Compare the default pair'}
        </button>
      </div>
      {list.error && <p class="error">{list.error.message}</p>}
      {list.data && list.data.streaming.length === 0 && (
        <p class="muted small">No device streams logcat: crashes are recorded only from streamed devices.</p>
      )}
      {list.data && sessions.length === 0 ? (
        <p class="empty">
          No debug session yet: one opens when droidbus installs an app on a device (install_apk, a run
          configuration).
        </p>
      ) : (
        list.data && (
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
              {sessions.map((s) => (
                <tr key={s.id} data-session={s.id} class={s.id === selected ? 'selected' : undefined}>
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
                      {s.avd_name ?? s.device_model ?? s.device} · <code>{s.id}</code>
                    </div>
                  </th>
                  <td>
                    {s.state}
                    {s.state_reason && <div class="muted small">{s.state_reason}</div>}
                  </td>
                  <td>{s.build_label}</td>
                  <td>{ago(s.opened_at)}</td>
                  <td class="counts">
                    {s.counts.launches} / {s.counts.crashes} / {s.counts.anrs}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      )}
      {comparing && <ComparePanel from={comparing.from} to={comparing.to} asked={comparing.asked} />}
      {selected && <Timeline id={selected} />}
    </section>
  );
}
