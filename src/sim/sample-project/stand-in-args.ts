/**
 * The gradlew stand-in's command line, parsed the way Gradle's client parses it: task names,
 * `-x` exclusions, `-p` project dir, `-P`/`-D` properties, and the flags builds pass
 * (`--offline`, `--console=plain`, `--stacktrace`…). An option Gradle does not know is an error.
 *
 * Evidence: Gradle's command line
 * (https://docs.gradle.org/current/userguide/command_line_interface.html: task names and
 * abbreviations, `-x`, `-p`, `-P`, `-D`, the flags).
 */

export interface GradleArgs {
  tasks: string[];
  excluded: string[];
  projectDir?: string;
  properties: Record<string, string>;
  quiet: boolean;
  stacktrace: boolean;
  dryRun: boolean;
  rerunTasks: boolean;
  version: boolean;
  help: boolean;
  stop: boolean;
  /** `tasks --all`: every task, ungrouped ones and subprojects' included. */
  all: boolean;
  /** Set when an option is unknown or misses its value; Gradle exits 1 with this text. */
  error?: string;
}

/** Options that consume the next argument (or take it after `=`). */
const WITH_VALUE = new Set([
  '-p',
  '--project-dir',
  '-x',
  '--exclude-task',
  '-I',
  '--init-script',
  '-c',
  '--settings-file',
  '-g',
  '--gradle-user-home',
  '--console',
  '--warning-mode',
  '--max-workers',
  '--include-build',
  '--priority',
  '--project-cache-dir',
  '--write-verification-metadata',
  '--dependency-verification',
  '-F',
]);

/** Flags Gradle accepts that change nothing in the stand-in. */
const ACCEPTED = new Set([
  '--offline',
  '--stacktrace',
  '-s',
  '--full-stacktrace',
  '-S',
  '--info',
  '-i',
  '--debug',
  '-d',
  '--warn',
  '-w',
  '--quiet',
  '-q',
  '--scan',
  '--no-scan',
  '--daemon',
  '--no-daemon',
  '--foreground',
  '--parallel',
  '--no-parallel',
  '--build-cache',
  '--no-build-cache',
  '--configuration-cache',
  '--no-configuration-cache',
  '--configure-on-demand',
  '--no-configure-on-demand',
  '--continue',
  '--no-continue',
  '--dry-run',
  '-m',
  '--refresh-dependencies',
  '--rerun-tasks',
  '--rerun',
  '--profile',
  '--watch-fs',
  '--no-watch-fs',
  '--status',
  '--stop',
  '--version',
  '-v',
  '--help',
  '-h',
  '-?',
  '--no-rebuild',
  '-a',
  '--export-keys',
  // The `tasks` task's own option: Gradle's tasks report itself ends with "To see all tasks and
  // more detail, run gradlew tasks --all".
  '--all',
]);

/** Parses gradlew's arguments. */
export function parseGradleArgs(argv: readonly string[]): GradleArgs {
  const out: GradleArgs = {
    tasks: [],
    excluded: [],
    properties: {},
    quiet: false,
    stacktrace: false,
    dryRun: false,
    rerunTasks: false,
    version: false,
    help: false,
    stop: false,
    all: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) {
      out.tasks.push(arg);
      continue;
    }
    if (/^-[PD]./.test(arg)) {
      const [key, ...rest] = arg.slice(2).split('=');
      out.properties[key!] = rest.join('=');
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (WITH_VALUE.has(name)) {
      const value = name !== arg ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) {
        out.error = `No argument was provided for command-line option '${name}'.`;
        return out;
      }
      if (name === '-p' || name === '--project-dir') {
        out.projectDir = value;
      } else if (name === '-x' || name === '--exclude-task') {
        out.excluded.push(value);
      }
      continue;
    }
    if (!ACCEPTED.has(name)) {
      out.error = `Unknown command-line option '${name}'.`;
      return out;
    }
    out.quiet ||= name === '-q' || name === '--quiet';
    out.stacktrace ||= ['-s', '--stacktrace', '-S', '--full-stacktrace'].includes(name);
    out.dryRun ||= name === '-m' || name === '--dry-run';
    out.rerunTasks ||= name === '--rerun-tasks';
    out.version ||= name === '-v' || name === '--version';
    out.help ||= ['-h', '--help', '-?'].includes(name);
    out.stop ||= name === '--stop';
    out.all ||= name === '--all';
  }
  return out;
}
