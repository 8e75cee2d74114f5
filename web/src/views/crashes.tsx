import { useEffect, useRef, useState } from 'preact/hooks';
import { bus } from '../api';
import type { ResponseOf } from '../api';
import { usePage } from '../page-context';
import { ago } from '../format';
import { useAction, useBus, useEvent } from '../hooks';

type Crash = ResponseOf<'logcat.crashes'>['crashes'][number];
type Group = ResponseOf<'logcat.crashes'>['groups'][number];
type Retraced = NonNullable<ResponseOf<'logcat.crash_trace'>['retrace']>;

/**
 * A deobfuscated trace's title: its exception line and first frame, as the crash group's title
 * names the obfuscated ones (the mapping line already says how the mapping was matched).
 */
export function retracedTitle(trace: string): string | null {
  const lines = trace.split('\n').map((l) => l.trim());
  const exception = lines.find((l) => /^[\w.$]+(Exception|Error|Throwable)\b/.test(l));
  if (!exception) {
    return null;
  }
  const frame = lines.slice(lines.indexOf(exception) + 1).find((l) => l.startsWith('at '));
  return frame ? `${exception} ${frame}` : exception;
}

function Deobfuscated({ outcome }: { outcome: Retraced }) {
  return (
    <div class={`retrace ${outcome.status}`} aria-live="polite">
      <p>
        <strong class={`sev ${outcome.status === 'retraced' ? 'info' : 'warning'}`}>{outcome.status}</strong>{' '}
        <span class="mapping-line">{outcome.mapping_line}</span>
      </p>
      {outcome.reason && outcome.status !== 'retraced' && <p class="hint">{outcome.reason}</p>}
      <pre class="trace" tabIndex={0} aria-label="Deobfuscated stack trace">
        {outcome.trace}
      </pre>
    </div>
  );
}

function CrashDetail({ group, crash }: { group: Group; crash: Crash | null }) {
  const [loaded, setLoaded] = useState<Crash | null>(crash);
  const [outcome, setOutcome] = useState<Retraced | null>(null);
  const action = useAction();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { info } = usePage();
  const retraced = outcome?.status === 'retraced' ? retracedTitle(outcome.trace) : null;
  useEffect(() => {
    setOutcome(null);
    setLoaded(crash);
    if (!crash) {
      void bus('logcat.crash_trace', { crash_group_id: group.id }).then(
        (r) => setLoaded(r.crash),
        () => setLoaded(null),
      );
    }
  }, [group.id, crash?.seq]);
  useEffect(() => headingRef.current?.focus(), [group.id]);
  return (
    <section class="panel" aria-labelledby="crash-h">
      <h3 id="crash-h" tabIndex={-1} ref={headingRef}>
        {retraced ?? group.title}
      </h3>
      {retraced && <p class="muted small">As logcat printed it: {group.title}</p>}
      <p class="muted">
        {group.kind} · {group.count} time{group.count === 1 ? '' : 's'} ·{' '}
        {group.packages.join(', ') || 'unknown package'} on {group.devices.join(', ') || '?'} · last{' '}
        {ago(group.last_seen)}
      </p>
      {!loaded ? (
        <p class="muted">Reading the newest crash of this group…</p>
      ) : (
        <>
          <p>
            {loaded.summary}
            {loaded.truncated ? ' (trace cut short)' : ''}
          </p>
          <div class="row">
            <h4>Stack trace as logcat printed it</h4>
            <button
              type="button"
              class="primary"
              disabled={action.busy}
              onClick={() =>
                void action.run(async () =>
                  setOutcome(
                    (
                      await bus('logcat.crash_trace', {
                        crash_group_id: group.id,
                        retrace: { root: info?.project ?? null },
                      })
                    ).retrace ?? null,
                  ),
                )
              }
            >
              {action.busy ? 'Deobfuscating…' : 'Deobfuscate'}
            </button>
          </div>
          <pre class="trace" tabIndex={0} aria-label="Stack trace">
            {loaded.trace}
          </pre>
          {action.error && (
            <p class="error" role="alert">
              {action.error}
            </p>
          )}
          {outcome && <Deobfuscated outcome={outcome} />}
        </>
      )}
    </section>
  );
}

/** Crash groups read from logcat, newest first, with their stack and Deobfuscate. */
export function CrashesView() {
  const { go } = usePage();
  const crashes = useBus('logcat.crashes', { count: 100 });
  useEvent('logcat.crash', crashes.reload);
  const [selected, setSelected] = useState<string | null>(null);
  const groups = [...(crashes.data?.groups ?? [])].sort((a, b) => b.last_seen - a.last_seen);
  const group = groups.find((g) => g.id === selected) ?? null;
  const newest = (id: string): Crash | null => crashes.data?.crashes.find((c) => c.group_id === id) ?? null;
  return (
    <>
      {crashes.data && crashes.data.streaming.length === 0 && (
        <p class="banner warn">
          No device streams logcat, so no new crash can be read.{' '}
          <button type="button" class="link" onClick={() => go('logcat')}>
            Start logcat
          </button>{' '}
          on a device.
        </p>
      )}
      {crashes.error && <p class="error">{crashes.error.message}</p>}
      {groups.length === 0 ? (
        <p class="empty">No crash read yet.</p>
      ) : (
        <table class="grid" aria-label="Crash groups">
          <thead>
            <tr>
              <th scope="col">Crash</th>
              <th scope="col">Kind</th>
              <th scope="col">Count</th>
              <th scope="col">Package</th>
              <th scope="col">Last seen</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={g.id} data-group={g.id} class={g.id === selected ? 'selected' : undefined}>
                <th scope="row">
                  <button
                    type="button"
                    class="link"
                    aria-pressed={g.id === selected}
                    onClick={() => setSelected(g.id)}
                  >
                    {g.title}
                  </button>
                </th>
                <td>{g.kind}</td>
                <td class="count">{g.count}</td>
                <td>{g.packages.join(', ')}</td>
                <td>{ago(g.last_seen)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {group && <CrashDetail group={group} crash={newest(group.id)} />}
    </>
  );
}
