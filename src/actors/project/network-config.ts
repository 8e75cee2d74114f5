/**
 * `project.network_security_config`: the debug-only network security config that lets droidbus's
 * capture read an app's HTTPS, planned for one application module (project/network-security-files.ts)
 * and written into the project (project/project-writes.ts) unless it is a dry run.
 */
import { fail } from '../../bus/errors.js';
import type { PayloadOf, ResponseOf } from '../../bus/registry.js';
import { planNetworkFiles } from '../../project/network-security-files.js';
import type { ProjectModel } from '../../project/project-model.js';
import { currentText, ProjectWriteError, writeProjectFiles } from '../../project/project-writes.js';
import { networkCa } from '../../store/network-ca.js';

function appModule(model: ProjectModel, wanted: string | undefined) {
  const apps = model.modules.filter((m) => m.isApplication);
  if (wanted !== undefined) {
    const path = wanted.startsWith(':') ? wanted : `:${wanted}`;
    const m = model.modules.find((x) => x.path === path);
    if (!m || !m.isApplication) {
      throw fail.invalid(
        `${path} is not an application module of this project (application modules: ${apps.map((a) => a.path).join(', ') || 'none'})`,
      );
    }
    return m;
  }
  if (apps.length !== 1) {
    throw fail.invalid(
      apps.length === 0
        ? 'this project has no application module (com.android.application) to write a network security config for'
        : `this project has ${apps.length} application modules (${apps.map((a) => a.path).join(', ')}): say which with module`,
    );
  }
  return apps[0]!;
}

export async function networkSecurityConfig(
  p: PayloadOf<'project.network_security_config'>,
  model: ProjectModel,
): Promise<ResponseOf<'project.network_security_config'>> {
  const module = appModule(model, p.module);
  if (module.dir === null) {
    throw fail.failed(`the directory of ${module.path} could not be read from the settings file`);
  }
  const under = (rel: string): string => (module.dir === '' ? rel : `${module.dir}/${rel}`);
  try {
    const plan = await planNetworkFiles({
      moduleDir: module.dir,
      mainManifest: await currentText(model.root, under('src/main/AndroidManifest.xml')),
      debugManifest: await currentText(model.root, under('src/debug/AndroidManifest.xml')),
      read: (rel) => currentText(model.root, rel),
      caPem: (await networkCa()).cert,
    });
    const changes = plan.files.filter((f) => f.action !== 'unchanged');
    if (!p.dry_run && changes.length > 0) {
      await writeProjectFiles(model.root, changes);
    }
    return {
      module: module.path,
      name: plan.name,
      written: !p.dry_run && changes.length > 0,
      files: plan.files.map(({ path, action, why, content }) => ({ path, action, why, content })),
      notes: plan.notes,
    };
  } catch (err) {
    if (err instanceof ProjectWriteError) {
      throw fail.invalid(err.message);
    }
    throw err;
  }
}
