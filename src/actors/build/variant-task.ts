/**
 * How `run_gradle_task`'s `variant` chooses the task Gradle runs. The rule:
 *
 *  - The task's last path segment may be a verb: `assemble`, `install`, `bundle`, `lint`, `package`
 *    (→ `<verb><Variant>`), `test` / `unitTest` (→ `test<Variant>UnitTest`), or
 *    `connected` / `connectedAndroidTest` / `androidTest` (→ `connected<Variant>AndroidTest`). With a
 *    variant, the verb becomes that variant's task, keeping any module path (`:app:assemble` +
 *    `demoDebug` → `:app:assembleDemoDebug`).
 *  - A task that already names the variant (`assembleDemoDebug` + `demoDebug`) runs as it is; one
 *    that names another variant of the project is refused, and so is any other task with a variant
 *    (its task name cannot be derived: pass the full name instead).
 *  - The variant must exist: in the named module, else in some Android module of the project.
 *  - Without a variant the task runs as given; the variant and module are inferred from its name
 *    when it names one of the project's variants, for the build record.
 */
import { moduleVariants, type BuildVariant } from '../../project/variants.js';
import type { ProjectModel } from '../../project/project-model.js';

interface VerbRule {
  prefix: string;
  suffix: string;
}

const VERBS: Record<string, VerbRule> = {
  assemble: { prefix: 'assemble', suffix: '' },
  install: { prefix: 'install', suffix: '' },
  bundle: { prefix: 'bundle', suffix: '' },
  lint: { prefix: 'lint', suffix: '' },
  package: { prefix: 'package', suffix: '' },
  test: { prefix: 'test', suffix: 'UnitTest' },
  unitTest: { prefix: 'test', suffix: 'UnitTest' },
  connected: { prefix: 'connected', suffix: 'AndroidTest' },
  connectedAndroidTest: { prefix: 'connected', suffix: 'AndroidTest' },
  androidTest: { prefix: 'connected', suffix: 'AndroidTest' },
};

/** The verbs `variant` applies to, for messages. */
export const VARIANT_VERBS = Object.keys(VERBS);

export type VariantTask =
  { ok: true; task: string; variant: string | null; module: string | null } | { ok: false; reason: string };

function cap(s: string): string {
  return s.length === 0 ? s : (s[0] as string).toUpperCase() + s.slice(1);
}

/** Splits `:app:assemble` into `:app` and `assemble`; a bare name has no module. */
function splitTask(task: string): { module: string | null; name: string } {
  const at = task.lastIndexOf(':');
  if (at < 0) {
    return { module: null, name: task };
  }
  return { module: at === 0 ? ':' : task.slice(0, at), name: task.slice(at + 1) };
}

function variantsOf(project: ProjectModel, module: string | null): BuildVariant[] {
  const mods = project.modules.filter((m) => m.isAndroid && (module === null || m.path === module));
  // Application modules first: a variant name shared with a library is the app's.
  mods.sort((a, b) => Number(b.isApplication) - Number(a.isApplication));
  return mods.flatMap(moduleVariants);
}

/** The project variant a task name spells (`assembleDemoDebug` → demoDebug), if any. */
function variantNamedBy(name: string, variants: readonly BuildVariant[]): BuildVariant | null {
  for (const rule of Object.values(VERBS)) {
    if (!name.startsWith(rule.prefix) || !name.endsWith(rule.suffix)) {
      continue;
    }
    const middle = name.slice(rule.prefix.length, name.length - rule.suffix.length);
    const hit = variants.find((v) => cap(v.name) === middle);
    if (hit) {
      return hit;
    }
  }
  return null;
}

function list(names: readonly string[]): string {
  const unique = [...new Set(names)];
  return unique.length === 0
    ? 'none'
    : `${unique.slice(0, 12).join(', ')}${unique.length > 12 ? `, … (${unique.length} in all)` : ''}`;
}

/** Applies `variant` to `task` by the rule above. */
export function resolveVariantTask(project: ProjectModel, task: string, variant: string | null): VariantTask {
  const { module, name } = splitTask(task);
  if (module !== null && module !== ':' && !project.modules.some((m) => m.path === module)) {
    // An unknown module is Gradle's to report; the variant cannot be checked against it.
    if (variant !== null) {
      return {
        ok: false,
        reason: `the project has no module ${module} (modules: ${list(project.modules.map((m) => m.path))}), so variant ${variant} cannot be applied to ${task}`,
      };
    }
    return { ok: true, task, variant: null, module };
  }
  const candidates = variantsOf(project, module === ':' ? null : module);
  if (variant === null) {
    const named = variantNamedBy(name, candidates);
    return {
      ok: true,
      task,
      variant: named?.name ?? null,
      module: module ?? named?.module ?? null,
    };
  }
  const matching = candidates.filter((v) => v.name === variant);
  if (matching.length === 0) {
    const where = module !== null && module !== ':' ? module : 'the project';
    return {
      ok: false,
      reason: `${where} has no variant ${variant} (its variants: ${list(candidates.map((v) => v.name))}); get_project_info lists them`,
    };
  }
  const owner = module !== null && module !== ':' ? module : (matching[0] as BuildVariant).module;
  const rule = VERBS[name];
  if (rule) {
    return {
      ok: true,
      task: `${module === null ? '' : module === ':' ? ':' : `${module}:`}${rule.prefix}${cap(variant)}${rule.suffix}`,
      variant,
      module: owner,
    };
  }
  const named = variantNamedBy(name, candidates);
  if (named?.name === variant) {
    return { ok: true, task, variant, module: owner };
  }
  if (named) {
    return {
      ok: false,
      reason: `task ${task} builds variant ${named.name}, not ${variant}; pass one of them only`,
    };
  }
  return {
    ok: false,
    reason: `variant applies to the verbs ${VARIANT_VERBS.join(', ')} (e.g. task: assemble, variant: ${variant} runs assemble${cap(variant)}); for ${task} pass the full task name without variant`,
  };
}
