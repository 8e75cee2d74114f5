import { useEffect, useState } from 'preact/hooks';
import { bus, type ResponseOf } from '../api';
import { usePage } from '../page-context';
import { useBus, useEvent, useInterval } from '../hooks';

type Device = ResponseOf<'devices.list'>['devices'][number];

/** A screenshot on demand: the API's PNG shown through a blob: URL (the CSP allows no other). */
function Screenshot({ serial }: { serial: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(
    () => () => {
      if (url) {
        URL.revokeObjectURL(url);
      }
    },
    [url],
  );
  const take = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/ui/api/screenshot?serial=${encodeURIComponent(serial)}`, {
        credentials: 'same-origin',
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { message?: string };
        throw new Error(body.message ?? `the host answered ${res.status}`);
      }
      setUrl(URL.createObjectURL(await res.blob()));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="shot">
      <button type="button" onClick={() => void take()} disabled={busy}>
        {busy ? 'Capturing…' : url ? 'New screenshot' : 'Screenshot'}
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {url && <img src={url} alt={`Screenshot of ${serial}`} class="screenshot" />}
    </div>
  );
}

/**
 * The on-device UI helper of a device (Appium's UiAutomator2 server): its state, and Install /
 * Remove — the person's decision, which no agent can make.
 */
function Helper({ serial }: { serial: string }) {
  const state = useBus('device.helper', { serial }, [serial]);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const act = async (what: 'device.helper_install' | 'device.helper_remove'): Promise<void> => {
    setBusy(what === 'device.helper_install' ? 'Installing…' : 'Removing…');
    setError(null);
    try {
      await bus(what, { serial });
      state.reload();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  };
  const h = state.data;
  return (
    <div class="helper">
      <span class="helper-state">
        {h === null
          ? state.error
            ? '—'
            : 'checking…'
          : h.installed
            ? `${h.current ? 'installed' : 'outdated'} ${h.version ?? ''}${h.running ? ', running' : ''}`
            : 'not installed'}
      </span>
      {h !== null && (
        <button
          type="button"
          class="link"
          disabled={busy !== null}
          onClick={() =>
            void act(h.installed && h.current ? 'device.helper_remove' : 'device.helper_install')
          }
        >
          {busy ?? (h.installed && h.current ? 'Remove' : h.installed ? 'Update' : 'Install')}
        </button>
      )}
      {(error ?? state.error?.message) && (
        <p class="error small" role="alert">
          {error ?? state.error?.message}
        </p>
      )}
    </div>
  );
}

function DeviceDetails({ device }: { device: Device }) {
  const online = device.state === 'device';
  const details = useBus('device.info', online ? { serial: device.serial } : null, [device.serial, online]);
  useInterval(details.reload, 10_000, online);
  const d = details.data;
  const { go } = usePage();
  return (
    <tr data-serial={device.serial}>
      <th scope="row">
        <code>{device.serial}</code>
        <div class="muted small">{device.connection}</div>
      </th>
      <td>
        <span class={`state state-${device.state}`}>{device.state}</span>
        {device.hint && <p class="hint">{device.hint}</p>}
      </td>
      <td>{d?.model ?? device.model ?? '—'}</td>
      <td>
        {d?.sdk !== undefined && d?.sdk !== null ? `API ${d.sdk} (Android ${d.android_version ?? '?'})` : '—'}
      </td>
      <td class="activity">
        {d?.foreground ? (
          <>
            <code>{d.foreground.package}</code>
            {d.foreground.activity && <div class="muted small">{d.foreground.activity}</div>}
          </>
        ) : online && details.loading ? (
          'reading…'
        ) : (
          '—'
        )}
        {details.error && <p class="error small">{details.error.message}</p>}
      </td>
      <td>{online ? <Helper serial={device.serial} /> : '—'}</td>
      <td class="actions">
        {online && (
          <>
            <Screenshot serial={device.serial} />
            <button
              type="button"
              class="link"
              onClick={() => go(`logcat?serial=${encodeURIComponent(device.serial)}`)}
            >
              Logcat
            </button>
          </>
        )}
      </td>
    </tr>
  );
}

/** Every device the adb server lists, live, with what to do about the unusable ones. */
export function DevicesView() {
  const list = useBus('devices.list', {});
  const [devices, setDevices] = useState<Device[] | null>(null);
  useEffect(() => {
    if (list.data) {
      setDevices(list.data.devices);
    }
  }, [list.data]);
  useEvent('devices.changed', (p) => setDevices(p.devices));
  const servers = list.data?.servers ?? [];
  const several = servers.length > 1;
  return (
    <section aria-labelledby="devices-h">
      <h3 id="devices-h" class="sr-only">
        Connected devices
      </h3>
      {servers.map((server) => (
        <p key={server.label} class={server.up ? 'muted' : 'banner error'}>
          {several ? `${server.label}: ` : ''}
          {server.message.includes(server.address)
            ? server.message
            : `adb server ${server.address}: ${server.message}`}
          {several && server.up ? ` — ${server.devices} device${server.devices === 1 ? '' : 's'}` : ''}
        </p>
      ))}
      {list.error && <p class="banner error">{list.error.message}</p>}
      {devices && devices.length === 0 && (
        <p class="empty">
          No device is connected. Plug one in with USB debugging on, start an emulator, or try{' '}
          <code>droidbus sim</code>.
        </p>
      )}
      {devices && devices.length > 0 && (
        <table class="grid" aria-label="Devices">
          <thead>
            <tr>
              <th scope="col">Serial</th>
              <th scope="col">State</th>
              <th scope="col">Model</th>
              <th scope="col">API level</th>
              <th scope="col">Current activity</th>
              <th
                scope="col"
                title="The on-device UI helper (Appium's UiAutomator2 server): faster screen reads, every window"
              >
                UI helper
              </th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {devices.map((d) => (
              <DeviceDetails key={d.serial} device={d} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
