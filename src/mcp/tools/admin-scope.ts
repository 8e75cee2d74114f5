import { z } from 'zod';
import type { ToolContext } from '../define-tool.js';
import type { PackageScopeArg } from '../../bus/messages/extras.js';

/** The `allow_foreign_package` parameter of the package-scoped tools. */
export const allowForeignPackage = z
  .boolean()
  .default(false)
  .describe("For a package outside the project's, only when the user asked");

/**
 * What a package-scoped call may act on, for the device actor to check before any device command
 * (src/actors/device/apps/package-scope.ts): the session's project, or any package when the call passes
 * allow_foreign_package: true.
 */
export function packageScope(ctx: ToolContext, allowForeign: boolean): PackageScopeArg {
  return { root: ctx.session.project.root, allow_foreign_package: allowForeign };
}
