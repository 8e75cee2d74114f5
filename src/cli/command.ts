/** One `droidbus` subcommand. `run` gets the arguments after the command name and returns the exit code. */
export interface CliCommand {
  name: string;
  /** One line for `droidbus --help`. */
  summary: string;
  /** The full `--help` text of this command. */
  usage: string;
  run(argv: string[]): Promise<number>;
}

/** Thrown for bad command-line usage: the CLI prints the message and the usage to stderr and exits 2. */
export class UsageError extends Error {}
