import { z } from 'zod';
import type { ToolContext } from '../define-tool.js';
import { ArgumentError } from '../define-tool.js';

/** The `allow_foreign_package` parameter of the package-scoped tools. */
export const allowForeignPackage = z
  .boolean()
  .default(false)
  .describe('Allow a package outside the project (only when the user asked)');

/**
 * The package scope rule of stop_app, restart_app and the permission tools: a package outside the
 * open project's application ids is refused (`foreign_package`) naming them, before any device command, unless
 * the call passes allow_foreign_package: true.
 */
export async function requireProjectPackage(
  ctx: ToolContext,
  pkg: string,
  allowForeign: boolean,
): Promise<void> {
  if (allowForeign) {
    return;
  }
  const root = ctx.session.project.root;
  if (root === null) {
    throw new ArgumentError(
      `No Android project is selected, so '${pkg}' cannot be confirmed as the project's app. Pass allow_foreign_package: true only if the user asked you to act on '${pkg}'.`,
      'no_project',
    );
  }
  const r = await ctx.bus.request('project.scope', { root, package: pkg }, { signal: ctx.signal });
  if (r.check !== null && !r.check.ok) {
    throw new ArgumentError(r.check.message, 'foreign_package');
  }
}
