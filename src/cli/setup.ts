import { readSkill } from '../mcp/skill.js';
import { claudeRegistration, codexRegistration } from '../setup/client-registration.js';
import type { Registration } from '../setup/client-registration.js';
import {
  claudeAddCommand,
  codexAddCommand,
  codexToolTimeoutSec,
  installLocation,
} from '../setup/install-location.js';
import { readSettings } from '../store/settings.js';
import { SkillInstallRefused, installSkill, skillStatus } from '../setup/skill-install.js';
import { VERSION } from '../version.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';

const USAGE = `Usage: droidbus setup [--json]
       droidbus setup --install-skill [--replace]

Prints the commands that register this installation of droidbus with Claude Code and Codex (with
its absolute path), and whether each client already has droidbus registered.

  --install-skill   write the droidbus agent skill to ~/.claude/skills/droidbus/SKILL.md
  --replace         with --install-skill: replace a different SKILL.md or a symlinked folder
  --json            print the report as JSON`;

function statusLine(r: Registration): string {
  if (!r.cliPath) {
    return `not checked: ${r.note}`;
  }
  if (r.configured) {
    return `registered${r.scope ? ` (${r.scope})` : ''}${r.registeredCommand ? `: ${r.registeredCommand}` : ''}`;
  }
  return r.note ?? 'not registered';
}

async function run(argv: string[]): Promise<number> {
  const { values } = parseCliArgs(argv, {
    'install-skill': { type: 'boolean' },
    replace: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (values.replace && !values['install-skill']) {
    throw new UsageError('--replace goes with --install-skill');
  }
  const skillText = readSkill();
  if (values['install-skill']) {
    try {
      const result = installSkill({ skillText, replace: values.replace === true });
      const said = {
        installed: `Installed the droidbus skill: ${result.path}`,
        replaced: `Replaced the skill at ${result.path} with the one this droidbus ships`,
        unchanged: `The droidbus skill at ${result.path} is already current`,
      }[result.status];
      process.stdout.write(`${said}\n`);
      return 0;
    } catch (err) {
      if (err instanceof SkillInstallRefused) {
        process.stderr.write(`droidbus setup: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
  }

  const location = installLocation();
  const [claude, codex] = await Promise.all([claudeRegistration(), codexRegistration()]);
  const buildTimeout = readSettings().mcp.build_timeout_sec;
  const codexTimeout = codexToolTimeoutSec(buildTimeout);
  const commands = location.launch
    ? {
        claude: claudeAddCommand(location.launch),
        codex: codexAddCommand(location.launch),
        codex_config: `[mcp_servers.droidbus]\ntool_timeout_sec = ${codexTimeout}`,
      }
    : null;
  const skill = skillStatus(skillText);
  if (values.json) {
    process.stdout.write(
      JSON.stringify({ version: VERSION, location, commands, claude, codex, skill }, null, 2) + '\n',
    );
    return location.problem ? 1 : 0;
  }
  const out: string[] = [`droidbus ${VERSION} setup`, ''];
  if (!commands) {
    out.push(`This installation cannot be registered: ${location.problem}`);
    process.stdout.write(out.join('\n') + '\n');
    return 1;
  }
  out.push(
    `This installation: ${location.via === 'global' ? location.launch!.command : `${location.launch!.command} ${location.cliPath}`}`,
    '',
    'Claude Code (user scope, so it works in every folder):',
    `  ${commands.claude}`,
    `  status: ${statusLine(claude)}`,
    '',
    'Codex:',
    `  ${commands.codex}`,
    `  then add to its table in ~/.codex/config.toml: tool_timeout_sec = ${codexTimeout}`,
    `  (Codex cuts a tool call at 60 s; a build may take droidbus's build timeout, ${buildTimeout} s)`,
    `  status: ${statusLine(codex)}`,
    '',
    'Append --project PATH to pin a project, --attach-only to refuse running standalone, or',
    '--toolsets core,ui to serve fewer tools.',
    '',
    `Agent skill for Claude Code (~/.claude/skills/droidbus/SKILL.md): ${
      {
        missing: 'not installed — droidbus setup --install-skill',
        current: 'installed and current',
        different: 'a different copy is installed — droidbus setup --install-skill --replace',
        symlink: 'a symlink is in its place — droidbus setup --install-skill --replace',
      }[skill]
    }`,
    'Other clients can read the same skill as the droidbus://skill resource.',
  );
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}

export const command: CliCommand = {
  name: 'setup',
  summary: 'Print the commands that register droidbus with Claude Code and Codex; install the skill.',
  usage: USAGE,
  run,
};
