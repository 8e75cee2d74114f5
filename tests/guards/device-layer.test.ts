/**
 * The device layer (issue 70): src/device sits below the actors — the read catalogue, the device
 * parsers and one handle per device (`Device`) — and is the only way droidbus sends a device a
 * command. The few modules that hold an adb client of their own use it for the server's questions
 * (which devices it lists) and wrap a device in a `Device` for anything else.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';
import { sourceFiles } from '../helpers/source-files.js';

const SRC = path.join(ROOT, 'src');

/** The src/ files a file imports (relative imports, type-only ones too), relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)]
    .map((m) => path.relative(SRC, path.resolve(path.dirname(file), m[1]!)).replace(/\.js$/, '.ts'))
    .filter((rel) => !rel.startsWith('..'));
}

const areaOf = (rel: string): string => rel.split(path.sep)[0]!;

/** Modules outside src/device that hold an adb client, and what for: never a device command. */
const CLIENT_HOLDERS: Readonly<Record<string, string>> = {
  'actors/devices/devices-actor.ts': "follows each adb server's device list (host:track-devices)",
  'cli/device.ts': 'picks the device to record from the server’s list; records through a Device',
  'cli/helper.ts': 'picks the devices from the server’s list; installs the helper through a Device',
  'loadtest/run-devices.ts': 'waits until the farm’s devices are listed',
  'loadtest/sim-process.ts': 'connects the farm’s devices; reads their counters through a Device',
  'sim/adbd/adb-server-launch.ts': 'finds the adb server the simulated devices announce themselves to',
};

/** An adb client's device commands, called on something named like a client. */
const DEVICE_CALL =
  /\b(?:\w*client|adb)\s*\.\s*(?:shell|shellBytes|exec|stream|open|stat|lstat|list|pull|push|install|forward|removeForward|features)\s*\(/i;

/**
 * The floors of docs/ARCHITECTURE.md's Layers: an area imports only areas on lower floors (a
 * number here that is smaller), never one beside it — mcp and actors share a floor and so never
 * import each other.
 */
const FLOORS: Readonly<Record<string, number>> = {
  util: 0,
  version: 0,
  store: 1,
  adb: 1,
  project: 2,
  setup: 2,
  bus: 3,
  flows: 4,
  device: 4,
  profile: 5,
  sim: 6,
  mcp: 7,
  actors: 7,
  host: 8,
  demo: 8,
  loadtest: 9,
  cli: 10,
};

describe('the layers', () => {
  it('point down: every import of another area is of one on a lower floor', () => {
    const files = sourceFiles(SRC);
    const area = (rel: string): string => areaOf(rel).replace(/\.ts$/, '');
    const unknown = [...new Set(files.map((f) => area(path.relative(SRC, f))))].filter((a) => !(a in FLOORS));
    expect(unknown).toEqual([]);
    const upward: string[] = [];
    for (const file of files) {
      const from = area(path.relative(SRC, file));
      for (const i of importsOf(file)) {
        const to = area(i);
        if (to !== from && !(FLOORS[to]! < FLOORS[from]!)) {
          upward.push(`${path.relative(SRC, file)} → ${i}`);
        }
      }
    }
    expect(upward).toEqual([]);
  });
});

describe('the device layer', () => {
  const files = sourceFiles(SRC);
  const rel = (f: string): string => path.relative(SRC, f);

  it('is the only place that sends a device a command: others hold an adb client only for the server’s lists', () => {
    const holders: string[] = [];
    const calls: string[] = [];
    for (const file of files) {
      const r = rel(file);
      if (['device', 'adb'].includes(areaOf(r))) {
        continue;
      }
      const text = readFileSync(file, 'utf8');
      if (importsOf(file).some((i) => i === 'adb/client.ts' || i === 'adb/multi-client.ts')) {
        holders.push(r);
        if (DEVICE_CALL.test(text)) {
          calls.push(`${r}: ${DEVICE_CALL.exec(text)![0]}`);
        }
      }
    }
    expect(holders.sort()).toEqual(Object.keys(CLIENT_HOLDERS).sort());
    expect(calls).toEqual([]);
  });

  it('lies below the actors: src/device imports no actor, frontend, host, profile or simulator code', () => {
    const upward: string[] = [];
    for (const file of files.filter((f) => areaOf(rel(f)) === 'device')) {
      for (const i of importsOf(file)) {
        if (
          ['actors', 'mcp', 'host', 'cli', 'profile', 'sim', 'flows', 'loadtest', 'demo'].includes(areaOf(i))
        ) {
          upward.push(`${rel(file)} → ${i}`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  it('keeps the profiles and the simulator off the actors: what they share with droidbus is in src/device', () => {
    const reaching: string[] = [];
    for (const file of files.filter((f) => ['profile', 'sim'].includes(areaOf(rel(f))))) {
      for (const i of importsOf(file).filter((x) => areaOf(x) === 'actors')) {
        reaching.push(`${rel(file)} → ${i}`);
      }
    }
    expect(reaching).toEqual([]);
  });

  it('keeps the device actor a router: its handlers live by concern beside it', () => {
    const actor = readFileSync(path.join(SRC, 'actors', 'device', 'device-actor.ts'), 'utf8');
    expect(actor.split('\n').length).toBeLessThanOrEqual(200);
  });
});
