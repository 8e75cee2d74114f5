import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { bus } from '../api';
import type { EventOf, ResponseOf } from '../api';
import { basename, duration, originLabel, when } from '../format';
import { useAction, useBus, useEvent, useInterval } from '../hooks';
import { RunConfigurations } from './run-configurations';

type BuildRecord = ResponseOf<'build.history'>['records'][number];
type Diagnostic = ResponseOf<'build.errors'>['diagnostics'][number];
type Started = EventOf<'build.started'>;

/** The newest lines of a build kept in the page. */
const MAX_LINES = 5_000;

type Editor = 'none' | 'vscode' | 'idea';
const EDITOR_KEY = 'droidbus.editor';

function editorLink(editor: Editor, d: Diagnostic): string | null {
  if (!d.file || editor === 'none') {
    return null;
  }
  const line = d.line ?? 1;
  if (editor === 'vscode') {
    return `vscode://file${d.file.startsWith('/') ? '' : '/'}${encodeURI(d.file)}:${line}:${d.column ?? 1}`;
  }
  return `idea://open?file=${encodeURIComponent(d.file)}&line=${line}`;
}

function location(d: Diagnostic): string {
  if (!d.file) {
    return d.task ?? d.source;
  }
  return `${d.file}${d.line !== null ? `:${d.line}` : ''}${d.column !== null ? `:${d.column}` : ''}`;
}

/** A build's output, lines numbered from 1 and addressable (`#<prefix>-L12`), following its end. */
function BuildLog({
  lines,
  first,
  prefix,
  follow,
}: {
  lines: string[];
  first: number;
  prefix: string;
  follow: boolean;
}) {
  const ref = useRef<HTMLPreElement>(null);
  const stick = useRef(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && follow && stick.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [lines, follow]);
  return (
    <pre
      ref={ref}
      class="log"
      tabIndex={0}
      aria-label="Build output"
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
    >
      {lines.map((line, i) => (
        <span
          key={first + i}
          id={`${prefix}-L${first + i + 1}`}
          class={/^(e: |FAILURE|BUILD FAILED)/.test(line) ? 'err' : /^w: /.test(line) ? 'warn' : undefined}
        >
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

function Diagnostics({ buildId, onShowLine }: { buildId: string; onShowLine: (line: number) => void }) {
  const errors = useBus(
    'build.errors',
    { root: null, build_id: buildId, include_warnings: true, limit: 200 },
    [buildId],
  );
  const [editor, setEditor] = useState<Editor>(
    () => (localStorage.getItem(EDITOR_KEY) as Editor | null) ?? 'none',
  );
  const d = errors.data;
  if (errors.error) {
    return <p class="error">{errors.error.message}</p>;
  }
  if (!d) {
    return <p class="muted">Reading diagnostics…</p>;
  }
  if (!d.available) {
    return (
      <p class="muted">This build's diagnostics are no longer kept (only the last 20 builds keep them).</p>
    );
  }
  return (
    <div class="diagnostics">
      <div class="row">
        <h4>
          Diagnostics ({d.total}){d.total > d.diagnostics.length ? `, first ${d.diagnostics.length}` : ''}
        </h4>
        <label>
          Open files in{' '}
          <select
            value={editor}
            onChange={(e) => {
              const v = e.currentTarget.value as Editor;
              setEditor(v);
              localStorage.setItem(EDITOR_KEY, v);
            }}
          >
            <option value="none">— (show the output line)</option>
            <option value="vscode">VS Code</option>
            <option value="idea">Android Studio / IntelliJ</option>
          </select>
        </label>
      </div>
      {d.what_went_wrong.length > 0 && (
        <details open>
          <summary>What went wrong</summary>
          {d.what_went_wrong.map((w, i) => (
            <pre key={i} class="wrong">
              {w}
            </pre>
          ))}
        </details>
      )}
      {d.diagnostics.length === 0 ? (
        <p class="muted">No errors or warnings.</p>
      ) : (
        <ul class="diag-list">
          {d.diagnostics.map((x, i) => {
            const href = editorLink(editor, x);
            return (
              <li key={i} class={`diag ${x.severity}`}>
                <span class={`sev ${x.severity}`}>{x.severity}</span>{' '}
                {href ? (
                  <a href={href} class="loc" title={`Open ${x.file ?? ''} in the editor`}>
                    {location(x)}
                  </a>
                ) : (
                  <a
                    href={`#output-line-${x.output_line}`}
                    class="loc"
                    title={`Show output line ${x.output_line}`}
                    onClick={(e) => {
                      e.preventDefault();
                      onShowLine(x.output_line);
                    }}
                  >
                    {location(x)}
                  </a>
                )}
                <span class="msg">{x.message}</span>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function resultLabel(r: BuildRecord): string {
  if (r.result === 'cancelled') {
    return `cancelled by ${originLabel(r.cancelled_by)}`;
  }
  return r.result;
}

function BuildDetails({ record, onClose }: { record: BuildRecord; onClose: () => void }) {
  const [showLog, setShowLog] = useState(false);
  const [target, setTarget] = useState<number | null>(null);
  const log = useBus('build.log', showLog ? { root: null, build_id: record.id, lines: 2000 } : null, [
    record.id,
    showLog,
  ]);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [record.id]);
  const first = log.data ? log.data.total_lines - log.data.lines.length : 0;
  useEffect(() => {
    if (target !== null && log.data) {
      document.getElementById(`hist-L${target}`)?.scrollIntoView({ block: 'center' });
      document.getElementById(`hist-L${target}`)?.classList.add('target');
    }
  }, [target, log.data]);
  return (
    <section class="panel" aria-labelledby="build-details-h">
      <div class="row">
        <h3 id="build-details-h" tabIndex={-1} ref={headingRef}>
          Build {record.id}: <code>{record.task}</code>
        </h3>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <dl class="facts">
        <dt>Project</dt>
        <dd>
          <code class="path">{record.project_root}</code>
        </dd>
        <dt>Started by</dt>
        <dd>{originLabel(record.origin)}</dd>
        <dt>Result</dt>
        <dd class={`result ${record.result}`}>
          {resultLabel(record)}
          {record.reason && record.result !== 'success' ? ` — ${record.reason}` : ''}
        </dd>
        <dt>When</dt>
        <dd>
          {when(record.started_at)}, {duration(record.duration_ms)}
        </dd>
        {record.failed_tasks.length > 0 && (
          <>
            <dt>Failed tasks</dt>
            <dd>{record.failed_tasks.join(', ')}</dd>
          </>
        )}
        {record.apks.length > 0 && (
          <>
            <dt>APKs</dt>
            <dd>
              {record.apks.map((a) => (
                <div key={a.path}>
                  <code class="path">{basename(a.path)}</code> {a.package ?? ''} {a.version_name ?? ''}
                </div>
              ))}
            </dd>
          </>
        )}
        {record.mapping_files.length > 0 && (
          <>
            <dt>Mappings</dt>
            <dd>{record.mapping_files.map((m) => m.map_id ?? basename(m.path)).join(', ')}</dd>
          </>
        )}
      </dl>
      <Diagnostics
        buildId={record.id}
        onShowLine={(line) => {
          setShowLog(true);
          setTarget(line);
        }}
      />
      <p>
        <button type="button" onClick={() => setShowLog(!showLog)} aria-expanded={showLog}>
          {showLog ? 'Hide the output' : 'Show the output'}
        </button>
      </p>
      {showLog && log.data && !log.data.available && (
        <p class="muted">This build's output is no longer kept.</p>
      )}
      {showLog && log.data && log.data.available && (
        <BuildLog lines={log.data.lines} first={first} prefix="hist" follow={false} />
      )}
    </section>
  );
}

interface Running {
  id: string;
  task: string;
  project_root: string;
  origin: Started['origin'];
  started_at: string;
}

type Lines = { first: number; lines: string[] };

/** Appends a streamed batch past what is shown (batches may overlap the log read), MAX_LINES kept. */
function withBatch(cur: Lines, batch: { from: number; lines: string[] }): Lines {
  const end = cur.first + cur.lines.length;
  const fresh = batch.from + batch.lines.length > end ? batch.lines.slice(Math.max(0, end - batch.from)) : [];
  if (fresh.length === 0) {
    return cur;
  }
  const all = cur.lines.concat(fresh);
  const drop = Math.max(0, all.length - MAX_LINES);
  return { first: cur.first + drop, lines: drop > 0 ? all.slice(drop) : all };
}

/** The running build (its status, then its lines as they stream), and the last one that ended. */
function useRunningBuild(onDone: () => void) {
  const [running, setRunning] = useState<Running | null>(null);
  const [lines, setLines] = useState<Lines>({ first: 0, lines: [] });
  const [last, setLast] = useState<BuildRecord | null>(null);
  const [cancelling, setCancelling] = useState<string | null>(null);
  const runningId = useRef<string | null>(null);
  const show = (r: Running): void => {
    runningId.current = r.id;
    const { id, task, project_root, origin, started_at } = r;
    setRunning({ id, task, project_root, origin, started_at });
  };
  const load = async (): Promise<void> => {
    const r = (await bus('build.status', { root: null })).running;
    if (!r) {
      runningId.current = null;
      setRunning(null);
      return;
    }
    show(r);
    setCancelling(r.cancelling ? originLabel(r.cancelling) : null);
    const log = await bus('build.log', { root: null, build_id: r.id, lines: 2000 });
    setLines((cur) =>
      cur.first + cur.lines.length > log.total_lines
        ? cur
        : { first: log.total_lines - log.lines.length, lines: log.lines },
    );
  };
  useEffect(() => {
    void load().catch(() => undefined);
  }, []);
  useEvent('page.resync', () => void load().catch(() => undefined));
  useEvent('build.started', (b) => {
    show(b);
    setLines({ first: 0, lines: [] });
    setCancelling(null);
    setLast(null);
  });
  useEvent('build.lines', (batch) => {
    if (batch.id === runningId.current) {
      setLines((cur) => withBatch(cur, batch));
    }
  });
  useEvent('build.completed', ({ record }) => {
    if (record.id === runningId.current) {
      runningId.current = null;
      setRunning(null);
      setLast(record);
    }
    onDone();
  });
  return { running, lines, last, cancelling, setCancelling };
}

/** No build runs: how the last one ended, with its lines. */
function NoBuildRunning({ last, lines }: { last: BuildRecord | null; lines: Lines }) {
  return (
    <section class="panel" aria-labelledby="running-h">
      <h3 id="running-h">Running build</h3>
      <p class="muted" role="status">
        {last ? (
          <>
            Build {last.id} (<code>{last.task}</code>) ended:{' '}
            <strong class={`result ${last.result}`}>{resultLabel(last)}</strong>
            {last.reason && last.result !== 'success' ? ` — ${last.reason}` : ''}.
          </>
        ) : (
          'No build is running. Builds any agent starts on this host stream here.'
        )}
      </p>
      {last && lines.lines.length > 0 && (
        <BuildLog lines={lines.lines} first={lines.first} prefix="run" follow={false} />
      )}
    </section>
  );
}

/** The running build, streaming line by line, with its cancel button. */
function RunningBuild({ onDone }: { onDone: () => void }) {
  const { running, lines, last, cancelling, setCancelling } = useRunningBuild(onDone);
  const cancel = useAction();
  const [now, setNow] = useState(Date.now());
  useInterval(() => setNow(Date.now()), 1_000, running !== null);
  useEffect(() => setNow(Date.now()), [running?.id, lines.lines.length]);
  if (!running) {
    return <NoBuildRunning last={last} lines={lines} />;
  }
  return (
    <section class="panel running" aria-labelledby="running-h">
      <div class="row">
        <h3 id="running-h">
          Running: <code>{running.task}</code>
        </h3>
        <button
          type="button"
          class="danger"
          disabled={cancel.busy || cancelling !== null}
          onClick={() =>
            void cancel.run(async () => {
              const r = await bus('build.cancel', {});
              setCancelling(r.cancelled ? originLabel({ kind: 'host' }) : null);
            })
          }
        >
          {cancelling ? 'Cancelling…' : 'Cancel build'}
        </button>
      </div>
      <p role="status">
        Started by <strong>{originLabel(running.origin)}</strong> in{' '}
        <code class="path">{running.project_root}</code>, running for{' '}
        {duration(Math.max(0, now - new Date(running.started_at).getTime()))} ·{' '}
        {lines.first + lines.lines.length} lines
      </p>
      {cancel.error && (
        <p class="error" role="alert">
          {cancel.error}
        </p>
      )}
      <BuildLog lines={lines.lines} first={lines.first} prefix="run" follow />
    </section>
  );
}

/** The running build and the history of builds on this host (every project). */
export function BuildsView() {
  const history = useBus('build.history', { root: null, limit: 30 });
  const [selected, setSelected] = useState<BuildRecord | null>(null);
  const records = history.data?.records ?? [];
  return (
    <>
      <RunningBuild onDone={history.reload} />
      <RunConfigurations onRan={history.reload} />
      {selected && <BuildDetails record={selected} onClose={() => setSelected(null)} />}
      <section aria-labelledby="history-h">
        <h3 id="history-h">History</h3>
        {history.error && <p class="error">{history.error.message}</p>}
        {records.length === 0 ? (
          <p class="empty">No build has run yet.</p>
        ) : (
          <table class="grid" aria-label="Build history">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Task</th>
                <th scope="col">Project</th>
                <th scope="col">Started by</th>
                <th scope="col">Result</th>
                <th scope="col">Duration</th>
                <th scope="col">Errors / warnings</th>
              </tr>
            </thead>
            <tbody>
              {records.map((r) => (
                <tr key={r.id} data-build={r.id} class={selected?.id === r.id ? 'selected' : undefined}>
                  <td>{when(r.started_at)}</td>
                  <th scope="row">
                    <button type="button" class="link" onClick={() => setSelected(r)}>
                      {r.task}
                    </button>
                  </th>
                  <td title={r.project_root}>{basename(r.project_root)}</td>
                  <td>{originLabel(r.origin)}</td>
                  <td class={`result ${r.result}`}>{resultLabel(r)}</td>
                  <td>{duration(r.duration_ms)}</td>
                  <td>
                    {r.diagnostics.errors} / {r.diagnostics.warnings}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
