/**
 * The package scope rule, where it is enforced: the device actor, before a command that stops an
 * app, clears its data or changes its permissions — whoever sent the request (a tool, the host's
 * page, a raw socket client). A package outside the project's application ids is refused
 * (`foreign_package`, naming them) unless the request says the person asked
 * (`allow_foreign_package`); with no project to check against it is refused too (`no_project`).
 */
import type { PackageScopeArg } from '../../../bus/messages/extras.js';
import { fail } from '../../../bus/errors.js';
import type { HandlerContext } from '../../actor.js';

export async function requirePackageInScope(
  ctx: HandlerContext,
  scope: PackageScopeArg,
  pkg: string,
): Promise<void> {
  if (scope.allow_foreign_package) {
    return;
  }
  if (scope.root === null) {
    throw fail.invalid(
      `No Android project is selected, so '${pkg}' cannot be confirmed as the project's app. Pass allow_foreign_package: true only if the user asked you to act on '${pkg}'.`,
      { reason: 'no_project' },
    );
  }
  const r = await ctx.bus.request(
    'project.scope',
    { root: scope.root, package: pkg },
    { signal: ctx.signal },
  );
  if (r.check !== null && !r.check.ok) {
    throw fail.invalid(r.check.message, { reason: 'foreign_package' });
  }
}

/**
 * The broadcast rule: a broadcast reaches other apps' receivers, so it needs a target in the
 * project's packages (or the person's word), and one without package or component (every app's
 * receivers) needs allow_foreign_package.
 */
export async function requireBroadcastScope(
  ctx: HandlerContext,
  scope: PackageScopeArg | undefined,
  target: string | undefined,
): Promise<void> {
  if (scope === undefined) {
    throw fail.invalid('a broadcast needs its package scope (scope: { root, allow_foreign_package })');
  }
  if (scope.allow_foreign_package) {
    return;
  }
  if (target === undefined) {
    throw fail.invalid(
      "A broadcast without package or component reaches every app's receivers. Pass package (the project's app) or component, or allow_foreign_package: true only if the user asked for an open broadcast.",
    );
  }
  await requirePackageInScope(ctx, scope, target);
}
