import { useEffect, useState } from 'preact/hooks';
import { onEvent } from '../api';
import { usePage } from '../app';
import { originLabel, when } from '../format';

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

/**
 * Debug sessions (one install of an app on a device and what happened to it). Until the
 * `sessions` actor is part of this droidbus, the view shows the installs, launches, stops and
 * crashes the bus reported since the page opened.
 */
export function DebugSessionsView() {
  const { meta } = usePage();
  const [, setTick] = useState(0);
  useEffect(() => {
    const fn = (): void => setTick((t) => t + 1);
    changed.add(fn);
    return () => {
      changed.delete(fn);
    };
  }, []);
  const available = meta?.requests.some((r) => r.startsWith('sessions.')) ?? false;
  const events = [...seen].reverse();
  return (
    <section>
      <p class="banner">
        {available
          ? 'This host records debug sessions; their list, timelines and comparison come to this page in a later release. '
          : 'This droidbus does not record debug sessions yet. '}
        Below: what happened to apps on devices since this page opened (installs, launches, stops, crashes),
        live from the bus.
      </p>
      {events.length === 0 ? (
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
      )}
    </section>
  );
}
