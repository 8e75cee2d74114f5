import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDataHome } from '../../../tests/helpers/data-home.js';
import { ROOT } from '../../../tests/helpers/paths.js';
import { appendHistory, historyPath, readHistory } from '../build-history.js';
import { readIndex, readSessionFile, sessionsDir } from '../debug-sessions.js';
import { readInstallRecords, recordInstall } from '../installed-builds.js';

/** Real writes of the data directory by earlier droidbus versions (see the folder's README). */
const FIXTURES = path.join(ROOT, 'tests', 'fixtures', 'store');

const homeDir = useTempDataHome('droidbus-formats-');

function place(fixture: string, target: string): void {
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(path.join(FIXTURES, fixture), target);
}

describe('data-directory files of earlier versions', () => {
  it('loads a build history in the format before provenance details were recorded, and keeps it when appending', async () => {
    place('build-history.effccf6.json', historyPath());
    const [old] = readHistory();
    expect(old).toMatchObject({ task: 'assembleDemoRelease', result: 'success', origin: { kind: 'agent' } });
    expect(old!.jdk_version).toBeUndefined();
    expect(old!.apks[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(old!.mapping_files[0]!.map_id).not.toBeNull();
    await appendHistory({ ...old!, id: 'b20261202-000000-000001' });
    expect(readHistory().map((r) => r.id)).toEqual([old!.id, 'b20261202-000000-000001']);
  });

  it('loads the build history, install records and debug session files droidbus writes today', async () => {
    place('build-history.json', historyPath());
    place('installed-builds.json', path.join(homeDir(), 'installed-builds.json'));
    const session = JSON.parse(readFileSync(path.join(FIXTURES, 'debug-session.json'), 'utf8')) as {
      id: string;
    };
    place('debug-session.json', path.join(sessionsDir(), `${session.id}.json`));
    place('debug-sessions-index.json', path.join(sessionsDir(), 'index.json'));

    const [build] = readHistory();
    expect(build!.build_files?.length).toBeGreaterThan(0);
    const [install] = readInstallRecords();
    expect(install).toMatchObject({ build_id: build!.id, package: 'com.droidbus.sample.demo' });
    const file = readSessionFile(session.id);
    expect(file?.install.id).toBe(install!.id);
    expect(file?.build?.id).toBe(build!.id);
    expect(file?.crashes.length).toBeGreaterThan(0);
    const index = readIndex(() => {
      throw new Error('the index parsed: nothing to rebuild');
    });
    expect(index.sessions.map((s) => s.id)).toEqual([session.id]);
    // A record this reader cannot parse (a newer droidbus wrote it) is kept when the file is rewritten.
    const raw = JSON.parse(readFileSync(path.join(homeDir(), 'installed-builds.json'), 'utf8')) as {
      installs: unknown[];
    };
    raw.installs.push({ id: 'from-a-newer-droidbus', shape: 'unknown' });
    writeFileSync(path.join(homeDir(), 'installed-builds.json'), JSON.stringify(raw));
    await recordInstall({ ...install!, id: 'i-next' });
    const kept = JSON.parse(readFileSync(path.join(homeDir(), 'installed-builds.json'), 'utf8')) as {
      installs: { id: string }[];
    };
    expect(kept.installs.map((r) => r.id)).toEqual([install!.id, 'from-a-newer-droidbus', 'i-next']);
  });
});

describe('file formats of their own', () => {
  it('declares the persisted schemas in src/store/formats, importing nothing of the bus', () => {
    const dir = path.join(ROOT, 'src', 'store', 'formats');
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      const text = readFileSync(path.join(dir, name), 'utf8');
      const imports = [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
      for (const source of imports) {
        expect(source === 'zod' || source.startsWith('./'), `${name} imports ${source}`).toBe(true);
      }
    }
  });
});
