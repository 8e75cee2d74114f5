import { useState } from 'preact/hooks';
import { bus } from '../api';
import type { ResponseOf } from '../api';
import { usePage } from '../page-context';
import { useAction, useBus, useEvent, useInterval } from '../hooks';

type Project = ResponseOf<'host.projects'>['projects'][number];

const SOURCES: Record<Project['sources'][number], string> = {
  host: 'open in the host',
  session: 'used by a session',
  trusted: 'in the trusted list',
};

function ProjectRow({ project, onChanged }: { project: Project; onChanged: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  return (
    <tr data-root={project.root}>
      <th scope="row">
        <code class="path">{project.root}</code>
        <div class="muted small">{project.sources.map((s) => SOURCES[s]).join(', ')}</div>
      </th>
      <td class={project.trusted ? 'ok' : 'bad'}>
        {project.trusted ? 'trusted' : 'not trusted'}
        {!project.exists && <div class="hint">not found as a Gradle build</div>}
      </td>
      <td class="actions">
        {project.trusted ? (
          <button
            type="button"
            disabled={action.busy}
            aria-label={`Revoke trust in ${project.root}`}
            onClick={() =>
              void action.run(async () => bus('host.untrust', { root: project.root }).then(onChanged))
            }
          >
            Revoke
          </button>
        ) : confirming ? (
          <div class="confirm" role="group" aria-label={`Trust ${project.root}?`}>
            <p class="small">
              Builds run this project's <code>gradlew</code> and build scripts with your privileges. Trust it
              only if you have reviewed it.
            </p>
            <button
              type="button"
              class="danger"
              disabled={action.busy}
              onClick={() =>
                void action.run(async () => {
                  await bus('host.trust', { path: project.root });
                  setConfirming(false);
                  onChanged();
                })
              }
            >
              Trust this project
            </button>{' '}
            <button type="button" onClick={() => setConfirming(false)}>
              Not now
            </button>
          </div>
        ) : (
          <button
            type="button"
            disabled={!project.exists}
            aria-label={`Trust ${project.root}`}
            onClick={() => setConfirming(true)}
          >
            Trust…
          </button>
        )}
        {action.error && (
          <p class="error" role="alert">
            {action.error}
          </p>
        )}
      </td>
    </tr>
  );
}

function Projects() {
  const projects = useBus('host.projects', {});
  useEvent('host.trust_changed', projects.reload);
  useEvent('host.sessions', projects.reload);
  useEvent('host.project', projects.reload);
  const [path, setPath] = useState('');
  const add = useAction();
  return (
    <section aria-labelledby="trust-h">
      <h3 id="trust-h">Project trust</h3>
      <p class="muted small">
        Agents may run a project's Gradle build only after you trust it — here or with{' '}
        <code>droidbus trust PATH</code>. No agent can grant it. Changes apply at the next build.
      </p>
      {projects.error && <p class="error">{projects.error.message}</p>}
      {projects.data && projects.data.projects.length === 0 && (
        <p class="empty">No project is open or trusted.</p>
      )}
      {projects.data && projects.data.projects.length > 0 && (
        <table class="grid" aria-label="Projects">
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col">Trust</th>
              <th scope="col">Decide</th>
            </tr>
          </thead>
          <tbody>
            {projects.data.projects.map((p) => (
              <ProjectRow key={p.root} project={p} onChanged={projects.reload} />
            ))}
          </tbody>
        </table>
      )}
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          void add.run(async () => {
            await bus('host.trust', { path });
            setPath('');
            projects.reload();
          });
        }}
      >
        <label class="grow">
          Trust another project (a folder of it){' '}
          <input
            type="text"
            value={path}
            required
            onInput={(e) => setPath(e.currentTarget.value)}
            placeholder="/home/me/MyApp"
          />
        </label>
        <button type="submit" disabled={add.busy || path.trim() === ''}>
          Trust
        </button>
      </form>
      {add.error && (
        <p class="error" role="alert">
          {add.error}
        </p>
      )}
    </section>
  );
}

function Approvals() {
  const { info } = usePage();
  const http = info?.http ?? null;
  const pending = useBus('host.oauth_pending', http ? {} : null, [http !== null]);
  useInterval(pending.reload, 2_000, http !== null);
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  return (
    <section aria-labelledby="oauth-h">
      <h3 id="oauth-h">OAuth approvals</h3>
      {!http ? (
        <p class="muted">HTTP MCP is off, so no OAuth client can ask (start the host with --http).</p>
      ) : (
        <>
          <p class="muted small">
            An application connecting to {http.url} with OAuth shows a consent page with a 2-digit number.
            Approve it only if you started that connection and the numbers match.
          </p>
          {done && (
            <p class="banner" role="status">
              {done}
            </p>
          )}
          {action.error && (
            <p class="error" role="alert">
              {action.error}
            </p>
          )}
          {pending.data && pending.data.pending.length === 0 && <p class="empty">No request is waiting.</p>}
          <ul class="approvals">
            {(pending.data?.pending ?? []).map((p) => (
              <li key={p.code} class="approval" data-code={p.code}>
                <span class="code" aria-label={`code ${p.code}`}>
                  {p.code}
                </span>
                <span>
                  <strong>{p.client_name}</strong> (returns to {p.redirect_host}), waiting {p.age_s} s
                </span>
                <button
                  type="button"
                  class="primary"
                  disabled={action.busy}
                  aria-label={`Approve ${p.code}`}
                  onClick={() =>
                    void action.run(async () => {
                      const r = await bus('host.oauth_decide', { code: p.code, approve: true });
                      setDone(`Approved ${r.client_name}; its page continues by itself.`);
                      pending.reload();
                    })
                  }
                >
                  Approve
                </button>
                <button
                  type="button"
                  disabled={action.busy}
                  aria-label={`Deny ${p.code}`}
                  onClick={() =>
                    void action.run(async () => {
                      const r = await bus('host.oauth_decide', { code: p.code, approve: false });
                      setDone(`Denied ${r.client_name}.`);
                      pending.reload();
                    })
                  }
                >
                  Deny
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Storage() {
  const storage = useBus('host.storage', {});
  const devices = useBus('devices.list', {});
  useEvent('host.storage_changed', storage.reload);
  const [serial, setSerial] = useState('');
  const [dir, setDir] = useState('/sdcard/Download');
  const action = useAction();
  const folders = storage.data?.folders ?? {};
  const serials = Object.keys(folders).sort();
  const known = (devices.data?.devices ?? []).map((d) => d.serial);
  return (
    <section aria-labelledby="storage-h">
      <h3 id="storage-h">Device folders for the file tools</h3>
      <p class="muted small">
        The file tools (<code>list_device_files</code>, <code>pull_device_file</code>,{' '}
        <code>push_device_file</code>) reach only the folders allowed here or with{' '}
        <code>droidbus storage allow</code>. Host files go through{' '}
        <code class="path">{storage.data?.exchange_dir ?? 'the exchange folder'}</code>.
      </p>
      {serials.length === 0 ? (
        <p class="empty">No folder is allowed on any device.</p>
      ) : (
        <table class="grid" aria-label="Allowed device folders">
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Folder</th>
              <th scope="col">Decide</th>
            </tr>
          </thead>
          <tbody>
            {serials.flatMap((s) =>
              (folders[s] ?? []).map((f) => (
                <tr key={`${s}${f}`}>
                  <th scope="row">
                    <code>{s}</code>
                  </th>
                  <td>
                    <code>{f}</code>
                  </td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Revoke ${f} on ${s}`}
                      disabled={action.busy}
                      onClick={() =>
                        void action.run(async () =>
                          bus('host.storage_revoke', { serial: s, dir: f }).then(storage.reload),
                        )
                      }
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      )}
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run(async () => {
            await bus('host.storage_allow', { serial: serial || known[0] || '', dir });
            storage.reload();
          });
        }}
      >
        <label>
          Device{' '}
          <select value={serial || known[0] || ''} onChange={(e) => setSerial(e.currentTarget.value)}>
            {known.length === 0 && <option value="">no device</option>}
            {known.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label class="grow">
          Folder on the device{' '}
          <input type="text" value={dir} required onInput={(e) => setDir(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={action.busy || known.length === 0}>
          Allow
        </button>
      </form>
      {action.error && (
        <p class="error" role="alert">
          {action.error}
        </p>
      )}
    </section>
  );
}

/** The user's decisions: project trust, OAuth approvals, device folders. */
export function TrustView() {
  return (
    <>
      <Projects />
      <Approvals />
      <Storage />
    </>
  );
}
