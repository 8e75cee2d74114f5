import { useState } from 'preact/hooks';
import { bus } from '../api';
import type { ResponseOf } from '../api';
import { usePage } from '../page-context';
import { useAction, useBus, useEvent } from '../hooks';

type Ran = ResponseOf<'run.configuration'>;

/**
 * The open project's run configurations, each with Run: the same `run.configuration` request the
 * run_run_configuration tool sends (resolve, build, install, launch), asked as the host's person.
 * The build shows in Running build above while it runs.
 */
export function RunConfigurations({ onRan }: { onRan: () => void }) {
  const root = usePage().info?.project ?? null;
  const listed = useBus('project.run_configurations', root === null ? null : { root }, [root]);
  useEvent('host.project', listed.reload);
  const devices = useBus('devices.list', {});
  useEvent('devices.changed', devices.reload);
  const action = useAction();
  const [ran, setRan] = useState<Ran | null>(null);
  const [serial, setSerial] = useState('');
  if (root === null) {
    return null;
  }
  const configurations = listed.data?.configurations ?? [];
  const run = (name: string): void => {
    setRan(null);
    void action.run(async () => {
      try {
        setRan(await bus('run.configuration', { root, name, ...(serial ? { device_serial: serial } : {}) }));
      } finally {
        onRan();
      }
    });
  };
  return (
    <section class="panel" aria-labelledby="run-configurations-h">
      <h3 id="run-configurations-h">Run configurations</h3>
      {listed.error && <p class="error">{listed.error.message}</p>}
      <label>
        Device{' '}
        <select value={serial} onChange={(e) => setSerial(e.currentTarget.value)}>
          <option value="">the configuration's target</option>
          {(devices.data?.devices ?? [])
            .filter((d) => d.state === 'device')
            .map((d) => (
              <option key={d.serial} value={d.serial}>
                {d.model ? `${d.model} (${d.serial})` : d.serial}
              </option>
            ))}
        </select>
      </label>
      {configurations.length === 0 ? (
        <p class="empty">This project has no run configuration.</p>
      ) : (
        <ul class="diag-list" aria-label="Run configurations">
          {configurations.map((c) => (
            <li key={c.name} data-configuration={c.name}>
              <button
                type="button"
                disabled={action.busy || c.cannot_run !== null}
                title={c.cannot_run ?? `${c.task}, then install and ${c.launch}`}
                onClick={() => run(c.name)}
              >
                Run {c.name}
              </button>{' '}
              <span class="muted">{c.cannot_run ?? `${c.module} ${c.variant}, ${c.target}`}</span>
            </li>
          ))}
        </ul>
      )}
      {action.busy && <p role="status">Running…</p>}
      {action.error && <p class="error">{action.error}</p>}
      {ran && (
        <p
          role="status"
          class={ran.outcome === 'done' ? 'result success' : 'result failed'}
          data-outcome={ran.outcome}
        >
          {ran.result}
        </p>
      )}
    </section>
  );
}
