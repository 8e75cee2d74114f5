import type { ResponseOf } from '../../bus/registry.js';
import type { ToolContext } from '../define-tool.js';
import { ArgumentError } from '../define-tool.js';

type Scope = ResponseOf<'project.scope'>;

/** The open project's package scope; `no_project` naming `why` when no project is open. */
export async function projectScope(ctx: ToolContext, why: string): Promise<Scope> {
  const root = ctx.session.project.root;
  if (root === null) {
    throw new ArgumentError(
      `No Android project is open in this session, so ${why}. Start droidbus with --project PATH, or pass package.`,
      'no_project',
    );
  }
  return ctx.bus.request('project.scope', { root }, { signal: ctx.signal });
}

/** True when a logcat query names `package:mine` (or `app:mine`), which needs the project's scope. */
export function queryNamesMine(query: string): boolean {
  return /(?:^|[\s(|&-])(?:package|app)[=~]?:mine(?=$|[\s)|&])/i.test(query);
}

/**
 * The package a tool acts on when the call names none: the project's app. The one build of it
 * installed on the device; else its only application id. Several ids or installed builds, or no
 * project, is `invalid_argument` asking for `package`.
 */
export async function defaultPackage(ctx: ToolContext, serial: string): Promise<string> {
  const scope = await projectScope(ctx, 'there is no default package');
  if (scope.ids.length === 0) {
    throw new ArgumentError(
      'No application id could be found in this project, so there is no default package: pass package.',
    );
  }
  const { installed } = await ctx.bus.request(
    'logcat.scope_packages',
    { serial, scope: scope.scope },
    { signal: ctx.signal },
  );
  if (installed.length === 1) {
    return installed[0]!;
  }
  if (installed.length > 1) {
    throw new ArgumentError(
      `Several builds of the project's app are installed on ${serial} (${installed.join(', ')}): pass package to choose one.`,
    );
  }
  if (scope.ids.length === 1) {
    return scope.ids[0]!;
  }
  throw new ArgumentError(
    `The project has several application ids (${scope.ids.join(', ')}) and none is installed on ${serial}: pass package.`,
  );
}
