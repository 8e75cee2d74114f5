import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { answerText } from '../mcp/call-result.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';
import { VERSION } from '../version.js';

const CLI = fileURLToPath(new URL('../cli.js', import.meta.url));

const USAGE = `Usage: droidbus flow run FILE [--devices N|SERIAL,SERIAL…] [-e NAME=VALUE]… [--project DIR]
                         [--lookup-timeout MS] [--json]

Runs a Maestro flow through droidbus on one device or many at once, and says per device whether it
passed — or the step that failed, why, and the screen there (its rows, and a screenshot under
~/.droidbus/flow-runs/). It runs launchApp, tapOn, inputText, eraseText, assertVisible,
assertNotVisible, scrollUntilVisible, back, pressKey, hideKeyboard, waitForAnimationToEnd,
extendedWaitUntil, openLink, stopApp, killApp, takeScreenshot, swipe, runFlow and \${NAME}
variables; a flow with any other command is refused, by name and line, before anything runs.
It attaches to a running droidbus host, else runs its own actors.

Options:
  --devices N|LIST        the first N online devices, or these serials (default: the one online)
  -e, --env NAME=VALUE    a variable (repeat for more), as maestro test -e
  --project DIR           the project the flow belongs to (default: the nearest folder above FILE
                          with settings.gradle, else FILE's folder); runFlow files must be inside it
  --lookup-timeout MS     how long to look for an element (default 17000, as Maestro)
  --json                  print the result as JSON on stdout

Exit status: 0 when the flow passed on every device, 1 when it failed on one, 2 on bad usage or
a flow that cannot run.`;

/** The nearest folder at or above `dir` that holds a Gradle settings file, else `dir`. */
function projectOf(dir: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    if (['settings.gradle', 'settings.gradle.kts'].some((f) => existsSync(path.join(d, f)))) {
      return d;
    }
    if (path.dirname(d) === d) {
      return dir;
    }
  }
}

function variables(pairs: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) {
      throw new UsageError(`-e takes NAME=VALUE, got ${pair.slice(0, 40)}`);
    }
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

function devicesArg(value: string | undefined): Record<string, unknown> {
  if (value === undefined) {
    return {};
  }
  if (/^\d+$/.test(value)) {
    return { device_count: Number(value) };
  }
  const serials = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (serials.length === 0) {
    throw new UsageError('--devices takes a number or serials separated by commas');
  }
  return { device_serials: serials };
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs(
    argv,
    {
      devices: { type: 'string' },
      env: { type: 'string', short: 'e', multiple: true },
      project: { type: 'string' },
      'lookup-timeout': { type: 'string' },
      json: { type: 'boolean' },
    },
    true,
  );
  if (positionals[0] !== 'run' || positionals.length !== 2) {
    throw new UsageError('give: run FILE');
  }
  const file = path.resolve(positionals[1]!);
  if (!existsSync(file)) {
    throw new UsageError(`${positionals[1]} does not exist`);
  }
  const project = path.resolve(values.project ?? projectOf(path.dirname(file)));
  const rel = path.relative(project, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new UsageError(`${positionals[1]} is not inside the project ${project}`);
  }
  const lookup = values['lookup-timeout'];
  if (lookup !== undefined && !/^\d{1,5}$/.test(lookup)) {
    throw new UsageError('--lookup-timeout takes milliseconds');
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--project', project, '--toolsets', 'flows'],
    env: process.env as Record<string, string>,
    stderr: 'pipe',
  });
  // The server's log is shown only when it could not serve: a run's answer says the rest.
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-4000);
  });
  const client = new Client({ name: 'droidbus-flow-run', version: VERSION });
  try {
    await client.connect(transport);
  } catch (err) {
    process.stderr.write(`droidbus flow: could not start droidbus mcp: ${String(err)}\n${log}`);
    return 2;
  }
  try {
    const result = (await client.callTool(
      {
        name: 'run_flow',
        arguments: {
          path: rel,
          ...devicesArg(values.devices),
          env: variables(values.env ?? []),
          ...(lookup !== undefined ? { lookup_timeout_ms: Number(lookup) } : {}),
          // The person named the flow, and with it the app it drives.
          allow_foreign_package: true,
        },
      },
      undefined,
      { timeout: 3_600_000, resetTimeoutOnProgress: true, onprogress: () => undefined },
    )) as CallToolResult;
    const text = answerText(result);
    if (result.isError) {
      process.stderr.write(`droidbus flow: ${text}\n`);
      return 2;
    }
    const structured = result.structuredContent as { failed: number };
    process.stdout.write(`${values.json ? JSON.stringify(structured, null, 2) : text}\n`);
    return structured.failed > 0 ? 1 : 0;
  } finally {
    await client.close().catch(() => undefined);
  }
}

export const command: CliCommand = {
  name: 'flow',
  summary: 'Run a Maestro flow on one device or many at once, through droidbus.',
  usage: USAGE,
  run,
};
