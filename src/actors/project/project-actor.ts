import { statSync } from 'node:fs';
import { defineActor } from '../actor.js';
import { findGradleRoot, settingsFileIn } from '../../project/gradle-root.js';
import { canonicalProjectRoot, isProjectTrusted, trustHint } from '../../project/trust.js';
import { inspectProject } from '../../project/project-model.js';
import { checkPackageScope, projectPackageScope, scopeIds } from '../../project/package-scope.js';

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The project actor: reads Gradle projects (settings, build files, trust) without running Gradle. */
export default defineActor({
  kind: 'project',
  concurrency: 4,
  start: () => ({}),
  handlers: {
    'project.describe': ({ root }) => {
      const canonical = canonicalProjectRoot(root);
      const exists = isDirectory(canonical);
      const gradleRoot = exists ? findGradleRoot(canonical) : null;
      const trusted = isProjectTrusted(gradleRoot ?? canonical);
      return {
        project_root: canonical,
        gradle_root: gradleRoot,
        settings_file: gradleRoot ? settingsFileIn(gradleRoot) : null,
        exists,
        trusted,
        trust_hint: trusted ? null : trustHint(gradleRoot ?? canonical),
      };
    },
    'project.scope': async ({ root, package: pkg }) => {
      const model = await inspectProject(findGradleRoot(canonicalProjectRoot(root)) ?? root);
      const scope = await projectPackageScope(model);
      return { scope, ids: scopeIds(scope), check: pkg === undefined ? null : checkPackageScope(scope, pkg) };
    },
  },
});
