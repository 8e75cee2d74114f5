import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { bus } from '../api';
import type { ResponseOf } from '../api';
import { routeQuery, usePage } from '../page-context';
import { useAction, useBus, useEvent, useInterval } from '../hooks';

type Entry = ResponseOf<'logcat.entries'>['entries'][number];
type Scope = ResponseOf<'project.scope'>['scope'];

/** Lines the tail keeps on screen. */
const MAX_ROWS = 2_000;
const POLL_MS = 700;

const EXAMPLES = [
  'level:W',
  'package:mine',
  'tag:ActivityManager',
  'is:crash',
  '-tag:chatty age:5m',
  'message~:"time(out|d out)"',
];

/** The open project's package scope (for `package:mine`), or null. */
function useProjectScope(root: string | null | undefined): Scope | null {
  const [scope, setScope] = useState<Scope | null>(null);
  useEffect(() => {
    if (!root) {
      setScope(null);
      return;
    }
    void bus('project.scope', { root }).then(
      (s) => setScope(s.scope),
      () => setScope(null),
    );
  }, [root]);
  return scope;
}

/**
 * The tail of `serial`'s log matching `query`: polled every POLL_MS from the last seq seen (all
 * over again when the device, query or scope changes), at most MAX_ROWS kept.
 */
function useLogcatTail(
  serial: string,
  query: string,
  scope: Scope | null,
  paused: boolean,
): { rows: Entry[]; error: string | null; forget: () => void } {
  const [rows, setRows] = useState<Entry[]>([]);
  const [error, setError] = useState<string | null>(null);
  const lastSeq = useRef(0);
  const inFlight = useRef(false);
  const generation = useRef(0);
  const poll = async (reset: boolean): Promise<void> => {
    if (!serial || inFlight.current) {
      return;
    }
    inFlight.current = true;
    const gen = generation.current;
    try {
      const r = await bus('logcat.entries', {
        serial,
        count: 500,
        ...(query.trim() ? { query: query.trim() } : {}),
        ...(scope ? { mine: scope } : {}),
        ...(reset ? {} : { since_seq: lastSeq.current }),
      });
      if (gen !== generation.current) {
        return;
      }
      setError(null);
      const newest = r.entries[r.entries.length - 1];
      if (newest) {
        lastSeq.current = Math.max(lastSeq.current, newest.seq);
      }
      setRows((cur) => {
        const all = reset ? r.entries : cur.concat(r.entries);
        return all.length > MAX_ROWS ? all.slice(all.length - MAX_ROWS) : all;
      });
    } catch (err) {
      if (gen === generation.current) {
        setError(err instanceof Error ? err.message : String(err));
      }
    } finally {
      inFlight.current = false;
    }
  };
  const forget = (): void => {
    generation.current++;
    lastSeq.current = 0;
    setRows([]);
  };
  useEffect(() => {
    forget();
    inFlight.current = false;
    void poll(true);
  }, [serial, query, scope]);
  useInterval(() => void poll(false), POLL_MS, !paused && serial !== '');
  return { rows, error, forget };
}

function QueryHelp() {
  return (
    <p id="query-help" class="muted small">
      Android Studio's query syntax:{' '}
      {EXAMPLES.map((x, i) => (
        <span key={x}>
          {i > 0 ? ', ' : ''}
          <code>{x}</code>
        </span>
      ))}
      . Terms AND together; <code>|</code> ORs, <code>-</code> negates; <code>package:mine</code> is the open
      project's apps.
    </p>
  );
}

/** The lines, kept scrolled to the newest unless the reader scrolled up. */
function LogLines({ serial, rows }: { serial: string; rows: Entry[] }) {
  const listRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  useLayoutEffect(() => {
    const el = listRef.current;
    if (el && stick.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [rows]);
  return (
    <div
      class="logcat"
      ref={listRef}
      tabIndex={0}
      role="log"
      aria-live="off"
      aria-label={`Logcat of ${serial || 'no device'}`}
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
    >
      {rows.map((r) => (
        <div key={r.seq} class={`line lvl-${r.level}${r.crash ? ' crash' : ''}`}>
          <span class="t">{r.time.slice(11)}</span>
          <span class="lvl">{r.level}</span>
          <span class="tag" title={r.package ?? undefined}>
            {r.tag}
          </span>
          <span class="pid">{r.pid}</span>
          <span class="msg">{r.message}</span>
        </div>
      ))}
    </div>
  );
}

/** The device to show: the route's, else one that streams (the first online one when none does). */
function useShownDevice(
  online: ResponseOf<'devices.list'>['devices'],
  stats: ResponseOf<'logcat.stats'> | null,
): [string, (serial: string) => void] {
  const [serial, setSerial] = useState<string>(routeQuery().get('serial') ?? '');
  useEffect(() => {
    if (serial || !online[0] || !stats) {
      return;
    }
    const live = online.find((d) =>
      stats.streams.some((s) => s.serial === d.serial && (s.state === 'streaming' || s.state === 'starting')),
    );
    setSerial((live ?? online[0]).serial);
  }, [online.length, stats]);
  return [serial, setSerial];
}

/** A live tail of one device's log, filtered with Android Studio's query syntax. */
export function LogcatView() {
  const { info } = usePage();
  const devices = useBus('devices.list', {});
  const stats = useBus('logcat.stats', {});
  useEvent('logcat.state', stats.reload);
  useEvent('devices.changed', devices.reload);
  const online = (devices.data?.devices ?? []).filter((d) => d.state === 'device');
  const [serial, setSerial] = useShownDevice(online, stats.data);
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const [paused, setPaused] = useState(false);
  const scope = useProjectScope(info?.project);
  const { rows, error, forget } = useLogcatTail(serial, query, scope, paused);
  const action = useAction();
  const stream = stats.data?.streams.find((s) => s.serial === serial) ?? null;
  const streaming = stream?.state === 'streaming' || stream?.state === 'starting';
  const toggleStream = (): void =>
    void action.run(async () =>
      bus(streaming ? 'logcat.stop' : 'logcat.start', { serial }).then(stats.reload),
    );

  return (
    <section>
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(draft);
        }}
      >
        <label>
          Device{' '}
          <select value={serial} onChange={(e) => setSerial(e.currentTarget.value)}>
            {online.length === 0 && <option value="">no device online</option>}
            {online.map((d) => (
              <option key={d.serial} value={d.serial}>
                {d.serial} {d.model ? `(${d.model})` : ''}
              </option>
            ))}
          </select>
        </label>
        <label class="grow">
          Query{' '}
          <input
            type="search"
            value={draft}
            placeholder="level:W package:mine -tag:chatty"
            aria-describedby="query-help"
            onInput={(e) => setDraft(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Filter</button>
        <button type="button" aria-pressed={paused} onClick={() => setPaused(!paused)}>
          {paused ? 'Resume' : 'Pause'}
        </button>
        <button
          type="button"
          disabled={!serial || action.busy}
          onClick={() => void action.run(async () => bus('logcat.clear', { serial }).then(forget))}
        >
          Clear
        </button>
        {serial && (
          <button
            type="button"
            class={streaming ? undefined : 'primary'}
            disabled={action.busy}
            onClick={toggleStream}
          >
            {streaming ? 'Stop logcat' : 'Start logcat'}
          </button>
        )}
      </form>
      <QueryHelp />
      <p class="muted small" role="status">
        {!serial
          ? 'No device is online.'
          : streaming
            ? `Streaming ${serial}${paused ? ' — paused' : ''}: ${rows.length} line${rows.length === 1 ? '' : 's'} shown${query ? ` matching ${query}` : ''}.`
            : `${serial} is not streaming: press Start logcat (crashes are read from the stream too).`}
      </p>
      {(error || action.error) && (
        <p class="error" role="alert">
          {error ?? action.error}
        </p>
      )}
      <LogLines serial={serial} rows={rows} />
    </section>
  );
}
