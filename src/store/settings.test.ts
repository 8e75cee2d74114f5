import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSettings, settingsPath, updateSettings } from './settings.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'droidbus-settings-'));
  process.env['DROIDBUS_HOME'] = home;
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  delete process.env['DROIDBUS_HOME'];
});

describe('settings', () => {
  it('gives the defaults when there is no settings file', () => {
    const settings = readSettings();
    expect(settings.trusted_projects).toEqual([]);
    expect(settings.mcp.build_timeout_sec).toBe(600);
  });

  it('keeps keys it does not know and falls back per field on bad values', async () => {
    writeFileSync(
      settingsPath(),
      JSON.stringify({
        from_the_future: { x: 1 },
        trusted_projects: 'not a list',
        mcp: { build_timeout_sec: 120 },
      }),
    );
    const settings = readSettings();
    expect(settings.trusted_projects).toEqual([]);
    expect(settings.mcp.build_timeout_sec).toBe(120);
    await updateSettings((s) => {
      s.last_active_project = '/p';
    });
    const written = JSON.parse(readFileSync(settingsPath(), 'utf8')) as Record<string, unknown>;
    expect(written['from_the_future']).toEqual({ x: 1 });
    expect(written['last_active_project']).toBe('/p');
  });

  it('loses no change when many updates race (each runs under the data lock)', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        updateSettings((s) => {
          s.trusted_projects.push(`/project/${i}`);
        }),
      ),
    );
    expect(readSettings().trusted_projects.sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `/project/${i}`).sort(),
    );
  });

  it('writes the file with mode 0600', async () => {
    await updateSettings(() => undefined);
    if (process.platform !== 'win32') {
      const { statSync } = await import('node:fs');
      expect(statSync(settingsPath()).mode & 0o777).toBe(0o600);
    }
  });
});
