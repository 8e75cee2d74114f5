import { BusError } from '../bus/errors.js';
import { HostUnreachableError, connectControl } from '../host/control-client.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';

const USAGE = `Usage: droidbus approve CODE
       droidbus approve --deny CODE
       droidbus approve            (lists the requests waiting)

Approves an OAuth connection to droidbus host --http. When an application (claude.ai, an agent on
another machine) connects with OAuth, its browser shows a consent page with a 2-digit code; the
running host prints the same code. If you started that connection and the numbers match, approve
it here: the page then continues by itself, and the application gets its tokens. Requests wait 5
minutes. Only the user at this machine can approve: agents cannot.

  --deny   refuse the request instead`;

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs(argv, { deny: { type: 'boolean' } }, true);
  if (positionals.length > 1) {
    throw new UsageError('droidbus approve takes one CODE');
  }
  const code = positionals[0];
  if (code !== undefined && !/^\d{2}$/.test(code)) {
    throw new UsageError(`'${code.slice(0, 20)}' is not a 2-digit approval code`);
  }
  if (code === undefined && values.deny) {
    throw new UsageError('--deny needs the CODE of the request to refuse');
  }
  let connection;
  try {
    connection = await connectControl();
  } catch (err) {
    if (err instanceof HostUnreachableError) {
      process.stderr.write(`droidbus approve: ${err.message}\n`);
      return err.kind === 'absent' ? 1 : 2;
    }
    throw err;
  }
  try {
    if (code === undefined) {
      const { pending } = await connection.client.request('host.oauth_pending', {});
      if (pending.length === 0) {
        process.stdout.write('No OAuth request is waiting for approval.\n');
        return 0;
      }
      process.stdout.write('OAuth requests waiting for approval:\n');
      for (const p of pending) {
        process.stdout.write(
          `  ${p.code}  ${p.client_name} (returns to ${p.redirect_host}, waiting ${p.age_s} s) — droidbus approve ${p.code}\n`,
        );
      }
      return 0;
    }
    const approve = values.deny !== true;
    const decided = await connection.client.request('host.oauth_decide', { code, approve });
    process.stdout.write(
      approve
        ? `Approved ${decided.client_name} (returns to ${decided.redirect_host}). Its page continues within a few seconds.\n`
        : `Denied ${decided.client_name}.\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof BusError) {
      process.stderr.write(`droidbus approve: ${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    await connection.client.close();
  }
}

export const command: CliCommand = {
  name: 'approve',
  summary: 'Approve (or --deny) an OAuth connection to droidbus host --http by its 2-digit code.',
  usage: USAGE,
  run,
};
