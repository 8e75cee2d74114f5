#!/usr/bin/env node
import { COMMANDS } from './cli/commands.js';
import { UsageError } from './cli/command.js';
import { VERSION } from './version.js';

function mainUsage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    `droidbus ${VERSION} — Android development tools for AI coding agents, over MCP`,
    '',
    'Usage: droidbus <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Options:',
    '  --help      show help (also after a command)',
    '  --version   print the version',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const out = first === undefined ? process.stderr : process.stdout;
    out.write(mainUsage() + '\n');
    return first === undefined ? 2 : 0;
  }
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const entry = COMMANDS[first];
  if (!entry) {
    process.stderr.write(`droidbus: unknown command '${first}'\n\n${mainUsage()}\n`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.usage + '\n');
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`droidbus ${first}: ${err.message}\n\n${command.usage}\n`);
      return 2;
    }
    throw err;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // Commands that serve (mcp, host, sim) resolve only when they are done; let pending writes flush.
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`droidbus: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
