import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetraceTask, RetraceTaskResult } from '../../src/actors/retrace/index.js';

const WORKER = join(import.meta.dirname, '../../dist/actors/retrace/retrace-worker.js');
const MAPPING = 'com.example.Main -> a.a:\n    1:3:void run():10:12 -> a\ncom.example.Boom -> a.b:\n';
const TRACE = 'a.b: boom\n\tat a.a.a(SourceFile:2)\n';

describe('the retrace pool worker (built, in a real Piscina pool)', () => {
  let dir: string;
  let pool: Piscina<RetraceTask, RetraceTaskResult>;

  beforeAll(async () => {
    if (!existsSync(WORKER)) {
      throw new Error(`${WORKER} is missing: run \`npm run build\` first`);
    }
    dir = await mkdtemp(join(tmpdir(), 'droidbus-retrace-'));
    await writeFile(join(dir, 'mapping.txt'), MAPPING);
    await writeFile(join(dir, 'other.txt'), MAPPING.replace('com.example.Main', 'com.example.Other'));
    await writeFile(join(dir, 'corrupt.txt'), 'com.example.Main -> a.a:\n    1:x:void run() -> a\n');
    await writeFile(join(dir, 'binary.txt'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0xff, 0xfe]));
    pool = new Piscina({ filename: WORKER, minThreads: 1, maxThreads: 1, workerData: { cacheBytes: 200 } });
  });

  afterAll(async () => {
    await pool?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('indexes a mapping and answers info from memory the second time', async () => {
    const path = join(dir, 'mapping.txt');
    const first = await pool.run({ op: 'index', mappingPath: path });
    expect(first).toMatchObject({
      ok: true,
      op: 'index',
      cached: false,
      info: { classes: 2, bytes: MAPPING.length },
    });
    const second = await pool.run({ op: 'info', mappingPath: path });
    expect(second).toMatchObject({ ok: true, op: 'info', cached: true });
  });

  it('retraces a trace', async () => {
    const result = await pool.run({ op: 'retrace', mappingPath: join(dir, 'mapping.txt'), trace: TRACE });
    expect(result.ok).toBe(true);
    if (result.ok && result.op === 'retrace') {
      expect(result.result.text).toBe('com.example.Boom: boom\n\tat com.example.Main.run(Main.java:11)\n');
    }
  });

  it('evicts the least recently used index once the size bound is passed', async () => {
    // The bound (200 bytes) holds one small index: indexing another evicts the first.
    await pool.run({ op: 'index', mappingPath: join(dir, 'other.txt') });
    const again = await pool.run({ op: 'info', mappingPath: join(dir, 'mapping.txt') });
    expect(again).toMatchObject({ ok: true, cached: false });
  });

  it('answers INVALID for a corrupt mapping and keeps serving', async () => {
    const corrupt = await pool.run({ op: 'retrace', mappingPath: join(dir, 'corrupt.txt'), trace: TRACE });
    expect(corrupt).toMatchObject({ ok: false, error: { code: 'INVALID' } });
    if (!corrupt.ok) {
      expect(corrupt.error.message).toMatch(/line 2/);
    }
    const binary = await pool.run({ op: 'index', mappingPath: join(dir, 'binary.txt') });
    expect(binary).toMatchObject({ ok: false, error: { code: 'INVALID' } });
    const missing = await pool.run({ op: 'info', mappingPath: join(dir, 'nope.txt') });
    expect(missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    const directory = await pool.run({ op: 'info', mappingPath: dir });
    expect(directory).toMatchObject({ ok: false, error: { code: 'INVALID' } });
    const ok = await pool.run({ op: 'retrace', mappingPath: join(dir, 'mapping.txt'), trace: TRACE });
    expect(ok.ok).toBe(true);
  });

  it('keeps an on-disk cache of the index when given a cache directory', async () => {
    const cacheDir = join(dir, 'cache');
    const first = await pool.run({ op: 'index', mappingPath: join(dir, 'other.txt'), cacheDir });
    expect(first.ok).toBe(true);
    expect((await readdir(cacheDir)).filter((f) => f.endsWith('.idx'))).toHaveLength(1);
    await pool.run({ op: 'index', mappingPath: join(dir, 'mapping.txt') });
    const fromDisk = await pool.run({
      op: 'retrace',
      mappingPath: join(dir, 'other.txt'),
      trace: TRACE,
      cacheDir,
    });
    expect(fromDisk).toMatchObject({ ok: true, cached: true });
    if (fromDisk.ok && fromDisk.op === 'retrace') {
      expect(fromDisk.result.text).toContain('com.example.Other.run(Other.java:11)');
    }
  });
});
