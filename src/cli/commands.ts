import type { CliCommand } from './command.js';

/**
 * Every subcommand, loaded on demand so `droidbus mcp` starts without loading the simulator or the
 * dashboard. Add a command here and in its own file under src/cli/.
 */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<CliCommand> }> = {
  sim: {
    summary: 'run simulated Android devices that the real adb server sees',
    load: async () => (await import('./sim.js')).command,
  },
};
