import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { bus, connectEvents, logout, meta, onLiveChange, onLoggedOut } from './api';
import type { PageMeta } from './api';
import { useBus, useEvent, useInterval } from './hooks';
import { Page, type PageContext } from './page-context';
import { ActivityView } from './views/activity';
import { BuildsView } from './views/builds';
import { CrashesView } from './views/crashes';
import { DebugSessionsView } from './views/debug-sessions';
import { DevicesView } from './views/devices';
import { LogcatView } from './views/logcat';
import { SessionsView } from './views/sessions';
import { TrustView } from './views/trust';

interface Route {
  id: string;
  label: string;
  view: () => ComponentChildren;
}

const ROUTES: Route[] = [
  { id: 'devices', label: 'Devices', view: () => <DevicesView /> },
  { id: 'sessions', label: 'Sessions', view: () => <SessionsView /> },
  { id: 'builds', label: 'Builds', view: () => <BuildsView /> },
  { id: 'logcat', label: 'Logcat', view: () => <LogcatView /> },
  { id: 'crashes', label: 'Crashes', view: () => <CrashesView /> },
  { id: 'debug', label: 'Debug sessions', view: () => <DebugSessionsView /> },
  { id: 'activity', label: 'Activity', view: () => <ActivityView /> },
  { id: 'trust', label: 'Trust & approvals', view: () => <TrustView /> },
];

/** `#/builds?x=1` → `builds`. */
function routeOf(hash: string): string {
  const id = hash.replace(/^#\/?/, '').split(/[?/]/)[0] ?? '';
  return ROUTES.some((r) => r.id === id) ? id : 'devices';
}

function useRoute(): string {
  const [route, setRoute] = useState(routeOf(location.hash));
  useEffect(() => {
    const onHash = (): void => setRoute(routeOf(location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return route;
}

function Runtime() {
  const figures = useBus('host.runtime', {});
  useInterval(figures.reload, 5_000);
  const r = figures.data;
  if (!r) {
    return null;
  }
  return (
    <span class="runtime" title="The host process: resident memory and event-loop delay (p99)">
      {r.rss_mb} MB · loop p99 {r.event_loop.p99_ms} ms
    </span>
  );
}

export function App() {
  const route = useRoute();
  const [pageMeta, setMeta] = useState<PageMeta | null>(null);
  const [live, setLive] = useState(false);
  const [gone, setGone] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [pending, setPending] = useState(0);
  const info = useBus('host.info', {});
  const mainRef = useRef<HTMLHeadingElement>(null);
  const firstRoute = useRef(true);

  useEffect(() => {
    void meta().then((m) => {
      setMeta(m);
      connectEvents([...m.topics]);
    });
    const offLive = onLiveChange(setLive);
    const offOut = onLoggedOut(() => setGone('This browser is no longer logged in (or the host restarted).'));
    return () => {
      offLive();
      offOut();
    };
  }, []);
  useEvent('host.sessions', info.reload);
  useEvent('host.project', info.reload);
  useEvent('host.quitting', (p) => setGone(`The droidbus host quit (${p.reason}).`));
  useEvent('build.started', () => setRunning(true));
  useEvent('build.completed', () => setRunning(false));
  useEffect(() => {
    void bus('build.status', { root: null }).then(
      (s) => setRunning(s.running !== null),
      () => undefined,
    );
  }, []);
  const http = info.data?.http ?? null;
  const pollApprovals = (): void => {
    void bus('host.oauth_pending', {}).then(
      (p) => setPending(p.pending.length),
      () => setPending(0),
    );
  };
  useInterval(pollApprovals, 3_000, http !== null);

  useEffect(() => {
    if (firstRoute.current) {
      firstRoute.current = false;
      return;
    }
    // Keyboard and screen-reader users land on the new view's heading.
    mainRef.current?.focus();
  }, [route]);

  const current = ROUTES.find((r) => r.id === route) ?? ROUTES[0]!;
  const context: PageContext = {
    info: info.data,
    meta: pageMeta,
    go: (r) => {
      location.hash = `#/${r}`;
    },
  };
  return (
    <Page.Provider value={context}>
      <a class="skip" href="#main">
        Skip to the view
      </a>
      <header class="top">
        <h1>
          droidbus <span class="muted">{info.data ? info.data.version : ''}</span>
        </h1>
        <p class="project" title="The project the host has open">
          {info.data?.project ?? 'no project open'}
        </p>
        <p class="status">
          <span class={live ? 'dot live' : 'dot'} aria-hidden="true" />
          <span role="status">{live ? 'live' : 'connecting…'}</span>
          <Runtime />
          <button type="button" class="link" onClick={() => void logout()}>
            Log out
          </button>
        </p>
      </header>
      {gone && (
        <div class="banner error" role="alert">
          {gone} Run <code>droidbus ui</code> for a new login link.
        </div>
      )}
      <div class="layout">
        <nav aria-label="Views">
          <ul>
            {ROUTES.map((r) => (
              <li key={r.id}>
                <a href={`#/${r.id}`} aria-current={r.id === route ? 'page' : undefined}>
                  {r.label}
                  {r.id === 'builds' && running && (
                    <span class="badge" title="A build is running">
                      running
                    </span>
                  )}
                  {r.id === 'trust' && pending > 0 && (
                    <span class="badge warn" title="OAuth approvals waiting">
                      {pending}
                    </span>
                  )}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main">
          <h2 tabIndex={-1} ref={mainRef}>
            {current.label}
          </h2>
          {current.view()}
        </main>
      </div>
    </Page.Provider>
  );
}
