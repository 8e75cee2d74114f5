/**
 * The small launcher scripts of the simulator's stand-ins (the sample project's `gradlew`, the
 * test SDK's `emulator`): a POSIX sh script and a Windows .bat that exec droidbus's stand-in module
 * with node, passing their arguments on and one environment variable that points into their folder.
 */

export interface StandInScript {
  /** Comment lines at the top (what the script is, and that nothing real runs). */
  comment: string[];
  /** The variable set for the stand-in, and the path under the script's folder it points to ('' for the folder). */
  env: { name: string; under: string };
  node: string;
  args: readonly string[];
}

function shQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

function batQuote(s: string): string {
  return `"${s.replaceAll('"', '""')}"`;
}

/** The POSIX sh launcher. */
export function posixStandIn(script: StandInScript): string {
  const value = script.env.under === '' ? '$APP_HOME' : `$APP_HOME/${script.env.under}`;
  return [
    '#!/bin/sh',
    ...script.comment.map((line) => `# ${line}`),
    'APP_HOME=$(cd "$(dirname "$0")" && pwd -P) || exit 1',
    `${script.env.name}=${value}`,
    `export ${script.env.name}`,
    `NODE=${shQuote(script.node)}`,
    '[ -x "$NODE" ] || NODE=node',
    `exec "$NODE" ${script.args.map(shQuote).join(' ')} "$@"`,
    '',
  ].join('\n');
}

/** The Windows .bat launcher (CRLF line endings, as cmd.exe expects). */
export function batStandIn(script: StandInScript): string {
  return [
    ...script.comment.map((line) => `@rem ${line}`),
    '@echo off',
    'setlocal',
    `set ${script.env.name}=%~dp0${script.env.under}`,
    `set NODE_EXE=${batQuote(script.node)}`,
    'if not exist %NODE_EXE% set NODE_EXE=node',
    `%NODE_EXE% ${script.args.map(batQuote).join(' ')} %*`,
    'exit /b %ERRORLEVEL%',
    '',
  ].join('\r\n');
}
