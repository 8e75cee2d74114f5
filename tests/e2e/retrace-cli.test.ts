import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '../../dist/cli.js');
const FIXTURE = join(import.meta.dirname, '../fixtures/retrace/r8/InlineWithLineNumbersStackTrace');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function droidbus(args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

describe('droidbus retrace', () => {
  let dir: string;
  beforeAll(async () => {
    if (!existsSync(CLI)) {
      throw new Error(`${CLI} is missing: run \`npm run build\` first`);
    }
    dir = await mkdtemp(join(tmpdir(), 'droidbus-retrace-cli-'));
    await writeFile(join(dir, 'corrupt.txt'), 'this is not a mapping\n');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const expected = (): Promise<string> =>
    import('node:fs/promises').then((fs) => fs.readFile(join(FIXTURE, 'expected.txt'), 'utf8'));
  const trace = (): Promise<string> =>
    import('node:fs/promises').then((fs) => fs.readFile(join(FIXTURE, 'trace.txt'), 'utf8'));

  it('prints the retraced trace of a trace file exactly as R8 does', async () => {
    const run = await droidbus([
      'retrace',
      '--mapping',
      join(FIXTURE, 'mapping.txt'),
      join(FIXTURE, 'trace.txt'),
    ]);
    expect(run).toEqual({ code: 0, stdout: await expected(), stderr: '' });
  });

  it('reads the trace from standard input', async () => {
    const run = await droidbus(['retrace', '--mapping', join(FIXTURE, 'mapping.txt')], await trace());
    expect(run).toEqual({ code: 0, stdout: await expected(), stderr: '' });
  });

  it('prints method signatures with --verbose', async () => {
    const run = await droidbus([
      'retrace',
      '--verbose',
      '--mapping',
      join(FIXTURE, 'mapping.txt'),
      join(FIXTURE, 'trace.txt'),
    ]);
    const fs = await import('node:fs/promises');
    expect(run.stdout).toBe(await fs.readFile(join(FIXTURE, 'expected-verbose.txt'), 'utf8'));
  });

  it('prints the structured result with --json', async () => {
    const run = await droidbus([
      'retrace',
      '--json',
      '--mapping',
      join(FIXTURE, 'mapping.txt'),
      join(FIXTURE, 'trace.txt'),
    ]);
    expect(run.code).toBe(0);
    const parsed = JSON.parse(run.stdout) as {
      text: string;
      changed: boolean;
      frames: unknown[];
      mapping: { classes: number };
    };
    expect(parsed.text).toBe(await expected());
    expect(parsed.changed).toBe(true);
    expect(parsed.frames).toHaveLength(2);
    expect(parsed.mapping.classes).toBe(1);
  });

  it('exits 2 with a clear message when the mapping is missing or not a mapping', async () => {
    const missing = await droidbus([
      'retrace',
      '--mapping',
      join(dir, 'nope.txt'),
      join(FIXTURE, 'trace.txt'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/mapping file not found: .*nope\.txt/);
    const corrupt = await droidbus([
      'retrace',
      '--mapping',
      join(dir, 'corrupt.txt'),
      join(FIXTURE, 'trace.txt'),
    ]);
    expect(corrupt.code).toBe(2);
    expect(corrupt.stderr).toMatch(/not a valid mapping file: .*line 1/);
  });

  it('exits 2 on an unknown flag or a missing --mapping', async () => {
    const unknown = await droidbus(['retrace', '--mapping', join(FIXTURE, 'mapping.txt'), '--colour']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--colour'/);
    const noMapping = await droidbus(['retrace', join(FIXTURE, 'trace.txt')]);
    expect(noMapping.code).toBe(2);
    expect(noMapping.stderr).toMatch(/--mapping FILE is required/);
  });

  it("refuses a mapping whose pg_map_id is not the trace's r8-map-id, unless --force", async () => {
    const fs = await import('node:fs/promises');
    const frames = join(import.meta.dirname, '../fixtures/retrace/map-id-frames');
    const own = join(frames, 'mapping.txt');
    const other = join(dir, 'other-build-mapping.txt');
    await fs.writeFile(
      other,
      (await fs.readFile(own, 'utf8')).replace('# pg_map_id: 5b8d8d1', '# pg_map_id: 0aa11ff'),
    );
    const refused = await droidbus(['retrace', '--mapping', other, join(frames, 'trace.txt')]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      `the trace's frames name map id 5b8d8d1 (r8-map-id-…), but ${other} is pg_map_id 0aa11ff: it is another build's mapping`,
    );
    expect(refused.stderr).toContain('pass --force');
    const forced = await droidbus(['retrace', '--force', '--mapping', other, join(frames, 'trace.txt')]);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('warning:');
    expect(forced.stdout).toBe(await fs.readFile(join(frames, 'expected.txt'), 'utf8'));
    // The build's own mapping is taken without a word.
    const matching = await droidbus(['retrace', '--mapping', own, join(frames, 'trace.txt')]);
    expect(matching.code).toBe(0);
    expect(matching.stderr).toBe('');
  });
});
