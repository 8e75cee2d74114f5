import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, tempDir } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

const home = tempDir('db-setup-home-');
const emptyBin = tempDir('db-setup-bin-'); // a PATH with neither claude nor codex on it
const env = { HOME: home.dir, PATH: emptyBin.dir, DROIDBUS_HOME: path.join(home.dir, '.droidbus') };
afterAll(() => {
  home.remove();
  emptyBin.remove();
});

describe('droidbus setup', () => {
  it('prints the registration commands with absolute paths to this installation', async () => {
    const result = await runCli(['setup'], { env });
    expect(result.code).toBe(0);
    const cli = realpathSync(CLI);
    expect(result.stdout).toContain(
      `claude mcp add --scope user --transport stdio droidbus -- ${process.execPath} ${cli} mcp`,
    );
    expect(result.stdout).toContain(`codex mcp add droidbus -- ${process.execPath} ${cli} mcp`);
    // Codex's 60 s default would cut a build: the line to add fits the build timeout (600 s default).
    expect(result.stdout).toContain('then add to its table in ~/.codex/config.toml: tool_timeout_sec = 660');
    expect(path.isAbsolute(process.execPath)).toBe(true);
    expect(path.isAbsolute(cli)).toBe(true);
  });

  it("sizes Codex's tool timeout from the build timeout the user set", async () => {
    const own = tempDir('db-setup-timeout-');
    try {
      writeFileSync(
        path.join(own.dir, 'settings.json'),
        JSON.stringify({ mcp: { build_timeout_sec: 1800 } }),
      );
      const result = await runCli(['setup'], { env: { ...env, DROIDBUS_HOME: own.dir } });
      expect(result.stdout).toContain('tool_timeout_sec = 1860');
      expect(result.stdout).toContain("a build may take droidbus's build timeout, 1800 s");
    } finally {
      own.remove();
    }
  });

  it('reports clients whose command is not on PATH as not installed', async () => {
    const result = await runCli(['setup', '--json'], { env });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      location: { launch: { command: string; args: string[] }; problem: string | null };
      claude: { cliPath: string | null; configured: boolean; note: string };
      codex: { cliPath: string | null; configured: boolean; note: string };
      skill: string;
    };
    expect(report.location.problem).toBeNull();
    expect(report.location.launch.args).toEqual([realpathSync(CLI), 'mcp']);
    expect(report.claude).toMatchObject({ cliPath: null, configured: false });
    expect(report.claude.note).toContain('the claude command is not on PATH');
    expect(report.codex).toMatchObject({ cliPath: null, configured: false });
    expect(report.skill).toBe('missing');
    expect((report as unknown as { commands: { codex_config: string } }).commands.codex_config).toBe(
      '[mcp_servers.droidbus]\ntool_timeout_sec = 660',
    );
    const text = await runCli(['setup'], { env });
    expect(text.stdout).toContain('status: not checked: the claude command is not on PATH');
    expect(text.stdout).toContain('status: not checked: the codex command is not on PATH');
  });

  it('installs the skill into ~/.claude/skills, then leaves a different copy alone unless told to replace it', async () => {
    const shipped = readFileSync(path.join(ROOT, 'skills', 'droidbus', 'SKILL.md'), 'utf8');
    const target = path.join(home.dir, '.claude', 'skills', 'droidbus', 'SKILL.md');
    const first = await runCli(['setup', '--install-skill'], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Installed the droidbus skill: ${target}`);
    expect(readFileSync(target, 'utf8')).toBe(shipped);
    expect((await runCli(['setup', '--install-skill'], { env })).stdout).toContain('already current');

    writeFileSync(target, '# my own notes\n');
    const refused = await runCli(['setup', '--install-skill'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('differs from the skill this droidbus ships');
    expect(readFileSync(target, 'utf8')).toBe('# my own notes\n');
    const replaced = await runCli(['setup', '--install-skill', '--replace'], { env });
    expect(replaced.code).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe(shipped);
  });

  it('refuses --replace without --install-skill', async () => {
    const result = await runCli(['setup', '--replace'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--replace goes with --install-skill');
  });
});
