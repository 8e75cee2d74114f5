import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startActorSystem } from '../actors/runtime.js';
import type { BusClient } from '../bus/client.js';
import { attachToHost } from '../mcp/attach-client.js';
import { flowRunText } from '../mcp/tools/flows.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';

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

function devicesArg(value: string | undefined): { count?: number; serials?: string[] } {
  if (value === undefined) {
    return {};
  }
  if (/^\d+$/.test(value)) {
    return { count: Number(value) };
  }
  const serials = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (serials.length === 0) {
    throw new UsageError('--devices takes a number or serials separated by commas');
  }
  return { serials };
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
  // The bus directly: a running host's (its devices, locks and sessions shared), else actors of our own.
  const origin = { kind: 'cli' } as const;
  const attached = await attachToHost({ sessionId: randomUUID(), project, selectedBy: 'argument', origin });
  const system = attached.kind === 'attached' ? null : startActorSystem();
  const bus: BusClient = attached.kind === 'attached' ? attached.client : system!.client(origin);
  try {
    const r = await bus.request(
      'flows.run',
      {
        root: project,
        path: rel,
        ...devicesArg(values.devices),
        env: variables(values.env ?? []),
        lookup_timeout_ms: lookup !== undefined ? Number(lookup) : 17_000,
        // The person named the flow, and with it the app it drives.
        scope: { root: project, allow_foreign_package: true },
      },
      { origin },
    );
    process.stdout.write(`${values.json ? JSON.stringify(r, null, 2) : flowRunText(r)}\n`);
    return r.failed > 0 ? 1 : 0;
  } catch (err) {
    // A flow that cannot run (a command droidbus does not run, a file outside the project) or no device.
    process.stderr.write(`droidbus flow: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  } finally {
    if (attached.kind === 'attached') {
      await attached.client.close().catch(() => undefined);
    }
    await system?.shutdown('the flow run ended');
  }
}

export const command: CliCommand = {
  name: 'flow',
  summary: 'Run a Maestro flow on one device or many at once, through droidbus.',
  usage: USAGE,
  run,
};
