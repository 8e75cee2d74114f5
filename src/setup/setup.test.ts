import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseClaudeGet, parseCodexGet } from './client-registration.js';
import {
  claudeAddCommand,
  codexAddCommand,
  installLocation,
  shellQuote,
  temporaryLocationReason,
} from './install-location.js';
import { SkillInstallRefused, installSkill, skillStatus } from './skill-install.js';

const FIXTURES = path.join(import.meta.dirname, '..', '..', 'tests', 'fixtures', 'setup');

describe('the install location', () => {
  it('reports an npx cache as a temporary location instead of a command', () => {
    const cli = '/home/u/.npm/_npx/1a2b3c/node_modules/droidbus/dist/cli.js';
    expect(temporaryLocationReason(cli)).toContain('npx cache');
    const location = installLocation({ cliPath: cli, envPath: '' });
    expect(location.launch).toBeNull();
    expect(location.problem).toContain('npx');
  });

  it('runs through node by absolute path when no droidbus on PATH is this installation', () => {
    const location = installLocation({
      cliPath: '/opt/droidbus/dist/cli.js',
      nodePath: '/usr/bin/node',
      envPath: '',
    });
    expect(location.launch).toEqual({ command: '/usr/bin/node', args: ['/opt/droidbus/dist/cli.js', 'mcp'] });
    expect(claudeAddCommand(location.launch!)).toBe(
      'claude mcp add --scope user --transport stdio droidbus -- /usr/bin/node /opt/droidbus/dist/cli.js mcp',
    );
    expect(codexAddCommand(location.launch!)).toBe(
      'codex mcp add droidbus -- /usr/bin/node /opt/droidbus/dist/cli.js mcp',
    );
  });

  it('quotes words a shell would split', () => {
    expect(shellQuote('/Users/Jane Doe/droidbus/dist/cli.js')).toBe("'/Users/Jane Doe/droidbus/dist/cli.js'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe('reading the clients', () => {
  it('does not count a Claude Code project-scope entry as registered', () => {
    const parsed = parseClaudeGet(
      readFileSync(path.join(FIXTURES, 'claude-mcp-get-project-scope.txt'), 'utf8'),
    );
    expect(parsed.configured).toBe(false);
    expect(parsed.scope).toBe('Project config (shared via .mcp.json)');
    expect(parsed.note).toContain('project scope');
  });

  it('counts a user-scope entry and reads its command', () => {
    const parsed = parseClaudeGet(
      'droidbus:\n  Scope: User config (available in all your projects)\n  Type: stdio\n  Command: /usr/bin/node\n  Args: /opt/droidbus/dist/cli.js mcp\n',
    );
    expect(parsed).toMatchObject({
      configured: true,
      registeredCommand: '/usr/bin/node /opt/droidbus/dist/cli.js mcp',
    });
  });

  it("reads Codex's JSON with the command at the top or under transport", () => {
    expect(
      parseCodexGet('{"name":"droidbus","command":"node","args":["/x/cli.js","mcp"]}').registeredCommand,
    ).toBe('node /x/cli.js mcp');
    expect(
      parseCodexGet('{"name":"droidbus","transport":{"type":"stdio","command":"node","args":["a"]}}')
        .registeredCommand,
    ).toBe('node a');
    expect(parseCodexGet('not json').registeredCommand).toBeNull();
  });
});

describe('installing the skill', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'db-skill-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));
  const file = () => path.join(home, '.claude', 'skills', 'droidbus', 'SKILL.md');

  it('writes SKILL.md, then finds it current', () => {
    expect(installSkill({ skillText: 'v1', home })).toEqual({ status: 'installed', path: file() });
    expect(readFileSync(file(), 'utf8')).toBe('v1');
    expect(installSkill({ skillText: 'v1', home }).status).toBe('unchanged');
    expect(skillStatus('v1', home)).toBe('current');
  });

  it('refuses a different SKILL.md unless told to replace it', () => {
    installSkill({ skillText: 'edited by the user', home });
    expect(() => installSkill({ skillText: 'v2', home })).toThrow(SkillInstallRefused);
    expect(readFileSync(file(), 'utf8')).toBe('edited by the user');
    expect(installSkill({ skillText: 'v2', home, replace: true }).status).toBe('replaced');
    expect(readFileSync(file(), 'utf8')).toBe('v2');
  });

  it('refuses a droidbus folder that is a symlink out of ~/.claude/skills, and replaces the link itself when told', () => {
    const outside = path.join(home, 'elsewhere');
    mkdirSync(outside);
    mkdirSync(path.join(home, '.claude', 'skills'), { recursive: true });
    symlinkSync(outside, path.join(home, '.claude', 'skills', 'droidbus'));
    expect(() => installSkill({ skillText: 'v1', home })).toThrow(/outside/);
    installSkill({ skillText: 'v1', home, replace: true });
    expect(lstatSync(path.join(home, '.claude', 'skills', 'droidbus')).isDirectory()).toBe(true);
    expect(() => readFileSync(path.join(outside, 'SKILL.md'))).toThrow();
  });

  it('replaces a symlinked SKILL.md by the file, never writing through the link', () => {
    const target = path.join(home, 'target.md');
    writeFileSync(target, 'theirs');
    mkdirSync(path.dirname(file()), { recursive: true });
    symlinkSync(target, file());
    expect(skillStatus('v1', home)).toBe('symlink');
    expect(() => installSkill({ skillText: 'v1', home })).toThrow(/symlink/);
    installSkill({ skillText: 'v1', home, replace: true });
    expect(lstatSync(file()).isSymbolicLink()).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('theirs');
  });
});
