import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sessionIdSchema } from '../bus/messages/sessions.js';
import { exportSession } from '../flows/maestro-export.js';
import { readSessionFile } from '../store/debug-sessions.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';

const USAGE = `Usage: droidbus session export ID [-o FILE]

Writes debug session ID's UI steps (what an agent did on the app: launch, taps, typing, keys,
scrolls, swipes, waits, assertions) as a Maestro flow, on stdout or to FILE. Elements are named as
Maestro selects them (id, text, description, an index only when needed); text typed into password
fields was never recorded and becomes a variable (\${PASSWORD}) to give when running the flow:

  droidbus flow run FILE -e PASSWORD=…      (or: maestro test -e PASSWORD=… FILE)

List sessions with the list_debug_sessions tool or the host's page (droidbus ui).

Options:
  -o, --out FILE   write the flow to FILE instead of stdout

Exit status: 0 when written, 1 when the session is unknown or has no UI steps, 2 on bad usage.`;

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs(argv, { out: { type: 'string', short: 'o' } }, true);
  if (positionals[0] !== 'export' || positionals.length !== 2) {
    throw new UsageError('give: export ID');
  }
  const id = sessionIdSchema.safeParse(positionals[1]);
  if (!id.success) {
    throw new UsageError(`${positionals[1]!.slice(0, 80)} is not a debug session id`);
  }
  const session = readSessionFile(id.data);
  if (session === null) {
    process.stderr.write(`droidbus session: no debug session ${id.data}\n`);
    return 1;
  }
  const flow = exportSession(session);
  if (flow.commands === 0) {
    process.stderr.write(`droidbus session: session ${id.data} has no UI steps to export\n`);
    return 1;
  }
  if (values.out === undefined) {
    process.stdout.write(flow.yaml);
  } else {
    writeFileSync(path.resolve(values.out), flow.yaml);
    process.stderr.write(`wrote ${flow.commands} commands to ${values.out}\n`);
  }
  if (flow.variables.length > 0) {
    process.stderr.write(
      `variables to give when running: ${flow.variables.map((v) => v.name).join(', ')} (password fields; never recorded)\n`,
    );
  }
  return 0;
}

export const command: CliCommand = {
  name: 'session',
  summary: "Export a debug session's UI steps as a Maestro flow (a test the team keeps).",
  usage: USAGE,
  run,
};
