import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/paths.js';

// How a user gets `droidbus` on PATH: `npm run install-cli` from a checkout (the README's first
// command), or a packed tarball a team shares before a registry release.

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
const SCRIPT = path.join(ROOT, 'scripts', 'install-cli.mjs');

function run(file: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT) {
  const r = spawnSync(file, args, { env, cwd, encoding: 'utf8', timeout: 240_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const work = tempDir('droidbus-install-');
afterAll(() => work.remove());

/** A PATH folder holding only node and npm (links to this machine's), nothing else on PATH. */
function nodeOnlyPath(): string {
  const bin = path.join(work.dir, 'node-only-bin');
  if (!existsSync(bin)) {
    mkdirSync(bin, { recursive: true });
    symlinkSync(process.execPath, path.join(bin, 'node'));
    const npm = run('sh', ['-c', 'command -v npm'], process.env).stdout.trim();
    symlinkSync(realpathSync(npm), path.join(bin, 'npm'));
  }
  return bin;
}

describe('npm run install-cli', () => {
  it("links droidbus into npm's global prefix when it is writable, and says it is on PATH", () => {
    const prefix = path.join(work.dir, 'global');
    const bin = path.join(prefix, 'bin');
    const env = {
      ...process.env,
      npm_config_prefix: prefix,
      PATH: `${bin}${path.delimiter}${process.env['PATH']}`,
    };
    const r = run(process.execPath, [SCRIPT], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`droidbus is on PATH: ${path.join(bin, 'droidbus')}`);
    // A link to this checkout: the next build is what runs.
    expect(realpathSync(path.join(bin, 'droidbus'))).toBe(path.join(realpathSync(ROOT), 'dist', 'cli.js'));
    const version = run(path.join(bin, 'droidbus'), ['--version'], env);
    expect(version.stdout.trim()).toContain(VERSION);
  });

  it('prints the PATH line to add when the folder it installed into is not on PATH', () => {
    const prefix = path.join(work.dir, 'elsewhere');
    // A PATH with node and npm only: a droidbus this machine has installed must not answer here.
    const r = run(process.execPath, [SCRIPT], {
      ...process.env,
      npm_config_prefix: prefix,
      PATH: nodeOnlyPath(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`export PATH="${path.join(prefix, 'bin')}:$PATH"`);
    expect(existsSync(path.join(prefix, 'bin', 'droidbus'))).toBe(true);
  });

  it('says so when PATH finds another droidbus before the one it installed', () => {
    const prefix = path.join(work.dir, 'shadowed');
    const other = path.join(work.dir, 'other-bin');
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'droidbus'), '#!/bin/sh\n', { mode: 0o755 });
    const PATH = [other, path.join(prefix, 'bin'), nodeOnlyPath()].join(path.delimiter);
    const r = run(process.execPath, [SCRIPT], { ...process.env, npm_config_prefix: prefix, PATH });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `installed ${path.join(prefix, 'bin', 'droidbus')}, but PATH finds another droidbus first: ${path.join(other, 'droidbus')}`,
    );
  });

  // As a user who may not write npm's global folder (no sudo): only where the system has such a
  // user and the checkout is readable by it (a clone under /root is not).
  const asUser =
    process.getuid?.() === 0 &&
    run('runuser', ['-u', 'nobody', '--', '/usr/bin/test', '-r', SCRIPT], process.env).code === 0;
  it.runIf(asUser)('chooses ~/.local for a user who may not write the global folder', () => {
    const home = path.join(work.dir, 'home-nobody');
    mkdirSync(home);
    chmodSync(work.dir, 0o755);
    chownSync(home, Number(run('id', ['-u', 'nobody'], process.env).stdout.trim()), 0);
    // A clean environment as that user's login would give: no npm prefix of ours, no ~/.local/bin.
    const r = run(
      'runuser',
      // --dry-run: a checkout owned by another user cannot be linked (npm chmods its bin), yours can.
      [
        '-u',
        'nobody',
        '--',
        '/usr/bin/env',
        '-i',
        `HOME=${home}`,
        'PATH=/usr/local/bin:/usr/bin:/bin',
        process.execPath,
        SCRIPT,
        '--dry-run',
      ],
      process.env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`is not yours to write; installing into ${path.join(home, '.local')}`);
    expect(r.stderr).toContain(`would run: npm install --global --prefix ${path.join(home, '.local')} `);
  });
});

describe('a packed droidbus', () => {
  let tarball = '';

  it('npm pack holds the built CLI, the bundled profiles and the skill, not the sources', () => {
    const r = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work.dir], process.env);
    expect(r.code, r.stderr).toBe(0);
    const [pack] = JSON.parse(r.stdout) as { filename: string; files: { path: string }[] }[];
    tarball = path.join(work.dir, pack!.filename);
    const files = pack!.files.map((f) => f.path);
    expect(files).toContain('dist/cli.js');
    expect(files).toContain('skills/droidbus/SKILL.md');
    expect(files.some((f) => f.startsWith('profiles/emulator-api34/'))).toBe(true);
    expect(files.some((f) => f.startsWith('dist/web/'))).toBe(true);
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('tests/'))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.test.js'))).toEqual([]);
  });

  it('npm install -g ./droidbus-*.tgz gives a droidbus that runs and finds its bundled profiles', () => {
    const prefix = path.join(work.dir, 'from-tarball');
    const r = run(
      'npm',
      ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', tarball],
      process.env,
      work.dir,
    );
    expect(r.code, r.stderr).toBe(0);
    const droidbus = path.join(prefix, 'bin', 'droidbus');
    expect(run(droidbus, ['--version'], process.env, work.dir).stdout).toContain(VERSION);
    // The sim's usage lists the bundled profiles it read from the installed package's folder.
    expect(run(droidbus, ['sim', '--help'], process.env, work.dir).stdout).toContain('emulator-api34');
  });

  it('npx ./droidbus-*.tgz mcp serves an MCP session with its tools and skill', async () => {
    const transport = new StdioClientTransport({
      command: 'npx',
      // As the README says it: a path npx reads as a package spec (an absolute one is a command).
      args: ['--yes', '--prefer-offline', `./${path.basename(tarball)}`, 'mcp'],
      cwd: work.dir,
      env: { ...(process.env as Record<string, string>), DROIDBUS_HOME: path.join(work.dir, 'npx-home') },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'install-test', version: '1.0.0' });
    await client.connect(transport, { timeout: 240_000 });
    try {
      expect(client.getServerVersion()?.version).toBe(VERSION);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('run_gradle_task');
      const skill = await client.readResource({ uri: 'droidbus://skill' });
      expect(JSON.stringify(skill.contents)).toContain('droidbus');
    } finally {
      await client.close();
    }
  });
}, 300_000);
