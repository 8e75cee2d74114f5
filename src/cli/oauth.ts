import { OAuthClientStore } from '../host/http/oauth/oauth-clients.js';
import { readSettings, updateSettings } from '../store/settings.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';

const USAGE = `Usage: droidbus oauth [--list-clients [--json] | --revoke-client ID | --enable | --disable]

droidbus host --http is its own OAuth 2.1 authorization server: applications register themselves
(at most 50), and each connection is approved by you with droidbus approve. Their tokens last
24 hours (refresh tokens 90 days, each usable once).

  --list-clients       the registered applications, with their grants
  --revoke-client ID   remove an application: its tokens stop working with the next request
  --enable             accept OAuth access tokens on /mcp (the default)
  --disable            stop (bearer tokens stay as they are; with both off the host is open to
                       anyone who can reach it, and warns about it)
  --json               with --list-clients: as JSON`;

async function run(argv: string[]): Promise<number> {
  const { values } = parseCliArgs(argv, {
    'list-clients': { type: 'boolean' },
    'revoke-client': { type: 'string' },
    enable: { type: 'boolean' },
    disable: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  const chosen = [
    values['list-clients'],
    values['revoke-client'] !== undefined,
    values.enable,
    values.disable,
  ];
  if (chosen.filter(Boolean).length > 1) {
    throw new UsageError('choose one of --list-clients, --revoke-client, --enable, --disable');
  }
  if (values.json && !values['list-clients']) {
    throw new UsageError('--json goes with --list-clients');
  }
  const store = new OAuthClientStore();
  if (values['revoke-client'] !== undefined) {
    const id = values['revoke-client'];
    const client = store.get(id);
    if (!(await store.remove(id))) {
      process.stderr.write(`droidbus oauth: no registered client has the id ${id.slice(0, 100)}\n`);
      return 2;
    }
    process.stdout.write(`Removed ${client?.client_name ?? id}; its tokens no longer work.\n`);
    return 0;
  }
  if (values.enable || values.disable) {
    const on = values.enable === true;
    const s = await updateSettings((settings) => {
      settings.http.oauth_enabled = on;
    });
    process.stdout.write(`OAuth is ${on ? 'on' : 'off'} for droidbus host --http.\n`);
    if (!on && !s.http.bearer_enabled) {
      process.stderr.write(
        'droidbus oauth: WARNING: bearer tokens are off too, so the HTTP frontend now lets anyone who can reach it use every tool.\n',
      );
    }
    return 0;
  }
  const clients = store.list();
  if (values.json) {
    process.stdout.write(
      JSON.stringify(
        clients.map((c) => ({
          client_id: c.client_id,
          client_name: c.client_name,
          redirect_uris: c.redirect_uris,
          registered_at: new Date(c.client_id_issued_at * 1000).toISOString(),
          grants: c.grants.map((g) => ({
            created_at: new Date(g.created_at).toISOString(),
            refreshed_at: new Date(g.refreshed_at).toISOString(),
          })),
        })),
        null,
        2,
      ) + '\n',
    );
    return 0;
  }
  const on = readSettings().http.oauth_enabled;
  const lines = [
    `OAuth: ${on ? 'on' : 'off'}; ${clients.length} registered client${clients.length === 1 ? '' : 's'}`,
  ];
  for (const c of clients) {
    const hosts = [...new Set(c.redirect_uris.map((u) => new URL(u).host))].join(', ');
    lines.push(
      `  ${c.client_id}  ${c.client_name} (returns to ${hosts}; registered ${new Date(c.client_id_issued_at * 1000).toISOString()}; ${c.grants.length} live grant${c.grants.length === 1 ? '' : 's'})`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

export const command: CliCommand = {
  name: 'oauth',
  summary: 'List or revoke the OAuth clients of droidbus host --http; turn OAuth on or off.',
  usage: USAGE,
  run,
};
