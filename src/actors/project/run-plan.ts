/**
 * `project.run_plan`: one run configuration resolved for running — build, install, launch — on the
 * devices adb lists now. The same configurations `list_run_configurations` shows (the project's
 * defaults, the active variant first), resolved by `resolveRunConfiguration` in `run` mode.
 */
import { fail } from '../../bus/errors.js';
import type { PayloadOf, ResponseOf } from '../../bus/registry.js';
import type { ProjectModel } from '../../project/project-model.js';
import { defaultRunConfigurations, resolveRunConfiguration } from '../../project/run-configurations.js';
import { runConfigurationViews } from './project-views.js';

/** Resolves the configuration `p.name` of `model` for running. */
export function runPlan(
  model: ProjectModel,
  trusted: boolean,
  activeVariant: string | null,
  /** What the user must do when the project is not trusted (a whole sentence). */
  trustHint: string,
  p: PayloadOf<'project.run_plan'>,
  lastDevices: Readonly<Record<string, string>> = {},
): ResponseOf<'project.run_plan'> {
  const views = runConfigurationViews(model, trusted, activeVariant, trustHint, lastDevices);
  const view = views.configurations.find((c) => c.name === p.name);
  const activeVariants: Record<string, string> = {};
  if (activeVariant !== null) {
    for (const m of model.modules.filter((x) => x.isApplication)) {
      activeVariants[m.path] = activeVariant;
    }
  }
  const config = defaultRunConfigurations(model, { activeVariants, lastDevices }).find(
    (c) => c.name === p.name,
  );
  if (view === undefined || config === undefined) {
    throw fail.invalid(
      `no run configuration named '${p.name.slice(0, 200)}' (the project has: ${views.configurations.map((c) => c.name).join(', ') || 'none'}); call list_run_configurations`,
    );
  }
  if (!trusted) {
    throw fail.invalid(trustHint, { reason: 'untrusted_project' });
  }
  const resolved = resolveRunConfiguration(
    config,
    {
      project: model,
      trusted,
      devices: p.devices,
      trustHint,
      ...(p.device_serial !== undefined ? { deviceSerial: p.device_serial } : {}),
    },
    'run',
  );
  if (!resolved.ok) {
    throw fail.failed(
      `run configuration '${config.name}' cannot run: ${resolved.cannotRun}${resolved.hint ? ` — ${resolved.hint}` : ''}`,
      resolved.hint !== undefined ? { hint: resolved.hint } : undefined,
    );
  }
  const plan = resolved.plan;
  if (plan.device === null) {
    throw fail.failed(`run configuration '${config.name}' has no device to run on`);
  }
  return {
    configuration: view,
    plan: {
      steps: plan.steps,
      module: plan.module,
      variant: plan.variant,
      task: plan.task,
      application_id: plan.applicationId,
      activity: plan.activity,
      deep_link: plan.deepLink,
      device: plan.device,
    },
  };
}
