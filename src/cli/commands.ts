import type { CliCommand } from './command.js';

/**
 * Every subcommand, loaded on demand so `droidbus mcp` starts without loading the simulator or the
 * dashboard. Add a command here and in its own file under src/cli/.
 */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<CliCommand> }> = {
  retrace: {
    summary: 'deobfuscate a stack trace with an R8/ProGuard mapping file',
    load: async () => (await import('./retrace.js')).command,
  },
};
