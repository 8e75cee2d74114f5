import { ensureBearerToken, rotateBearerToken } from '../host/http/http-settings.js';
import { readSettings, updateSettings } from '../store/settings.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';

const USAGE = `Usage: droidbus token [--rotate | --enable | --disable]

Prints the bearer token of droidbus host --http (generated the first time, 32 random bytes), for a
client's "Authorization: Bearer <token>" header. It is kept in settings.json (mode 0600) in the
data directory. A running host reads it fresh: a new token works, and the old one stops working,
with the next request.

  --rotate    replace the token with a new one and print it
  --enable    accept the bearer token on /mcp (the default; makes a token if there is none)
  --disable   stop accepting it (OAuth stays as it is; with both off the host is open to anyone
              who can reach it, and warns about it)`;

async function run(argv: string[]): Promise<number> {
  const { values } = parseCliArgs(argv, {
    rotate: { type: 'boolean' },
    enable: { type: 'boolean' },
    disable: { type: 'boolean' },
  });
  const chosen = [values.rotate, values.enable, values.disable].filter(Boolean).length;
  if (chosen > 1) {
    throw new UsageError('choose one of --rotate, --enable, --disable');
  }
  if (values.disable) {
    const s = await updateSettings((settings) => {
      settings.http.bearer_enabled = false;
    });
    process.stdout.write('Bearer tokens are no longer accepted by droidbus host --http.\n');
    if (!s.http.oauth_enabled) {
      process.stderr.write(
        'droidbus token: WARNING: OAuth is off too, so the HTTP frontend now lets anyone who can reach it use every tool.\n',
      );
    }
    return 0;
  }
  if (values.enable) {
    await updateSettings((settings) => {
      settings.http.bearer_enabled = true;
    });
    if (readSettings().http.bearer_token === '') {
      await rotateBearerToken();
    }
    process.stdout.write(`${await ensureBearerToken()}\n`);
    return 0;
  }
  const token = values.rotate ? await rotateBearerToken() : await ensureBearerToken();
  process.stdout.write(`${token}\n`);
  const settings = readSettings().http;
  if (!settings.bearer_enabled) {
    process.stderr.write(
      'droidbus token: note: bearer authentication is off; turn it on with droidbus token --enable\n',
    );
  } else if (token === '') {
    process.stderr.write(
      'droidbus token: the token in settings is empty, so every bearer request is refused; make one with droidbus token --rotate\n',
    );
  }
  return 0;
}

export const command: CliCommand = {
  name: 'token',
  summary: 'Print (or --rotate) the bearer token of droidbus host --http.',
  usage: USAGE,
  run,
};
