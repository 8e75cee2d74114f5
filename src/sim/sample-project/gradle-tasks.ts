/**
 * The task graph the gradlew stand-in pretends to run: for each entry task (assemble…, install…,
 * test…, connected…, lint…, clean, tasks) the ordered list of AGP 8 tasks Gradle would execute,
 * resolved from the command line's task names the way Gradle selects them (`name`, `:app:name`,
 * `app:name`). Unknown names fail with Gradle's own wording.
 */
import { capitalize, type BuildModel, type VariantModel } from './build-model.js';

export type TaskAction =
  | { kind: 'kotlin'; variant: VariantModel }
  | { kind: 'package'; variant: VariantModel }
  | { kind: 'mapping'; variant: VariantModel }
  | { kind: 'install'; variant: VariantModel }
  | { kind: 'uninstall'; variant: VariantModel }
  | { kind: 'unitTests'; variant: VariantModel }
  | { kind: 'connected'; variant: VariantModel }
  | { kind: 'lintReport'; variant: VariantModel }
  | { kind: 'clean' }
  | { kind: 'tasksReport' }
  | { kind: 'help' };

export interface PlannedTask {
  /** `:app:compileDemoDebugKotlin` */
  path: string;
  /** lifecycle: no actions of its own; noSource: skipped for lack of inputs. */
  type: 'work' | 'lifecycle' | 'noSource';
  /** The variant whose outputs decide whether the task is up to date. */
  variant?: VariantModel;
  /** Always runs, never up to date (install, connected tests, clean…). */
  alwaysRuns?: boolean;
  action?: TaskAction;
}

export type PlanResult = { ok: true; tasks: PlannedTask[] } | { ok: false; message: string };

type Expansion = () => PlannedTask[];

const APP = ':app';

function work(name: string, variant?: VariantModel, action?: TaskAction): PlannedTask {
  const t: PlannedTask = { path: `${APP}:${name}`, type: 'work' };
  if (variant) {
    t.variant = variant;
  }
  if (action) {
    t.action = action;
  }
  return t;
}

function lifecycle(name: string, project = APP): PlannedTask {
  return { path: `${project === '' ? '' : project}:${name}`, type: 'lifecycle' };
}

function noSource(name: string): PlannedTask {
  return { path: `${APP}:${name}`, type: 'noSource' };
}

function always(t: PlannedTask): PlannedTask {
  return { ...t, alwaysRuns: true };
}

/** Everything up to and including the Kotlin compilation of a variant. */
function compileChain(v: VariantModel): PlannedTask[] {
  const V = capitalize(v.name);
  return [
    lifecycle('preBuild'),
    lifecycle(`pre${V}Build`),
    work(`merge${V}JniLibFolders`, v),
    noSource(`merge${V}NativeLibs`),
    noSource(`strip${V}DebugSymbols`),
    work(`check${V}AarMetadata`, v),
    work(`generate${V}ResValues`, v),
    work(`map${V}SourceSetPaths`, v),
    lifecycle(`generate${V}Resources`),
    work(`merge${V}Resources`, v),
    work(`package${V}Resources`, v),
    work(`parse${V}LocalResources`, v),
    work(`create${V}CompatibleScreenManifests`, v),
    work(`extractDeepLinks${V}`, v),
    work(`process${V}MainManifest`, v),
    work(`process${V}Manifest`, v),
    work(`process${V}ManifestForPackage`, v),
    work(`process${V}Resources`, v),
    work(`compile${V}Kotlin`, v, { kind: 'kotlin', variant: v }),
    work(`javaPreCompile${V}`, v),
    noSource(`compile${V}JavaWithJavac`),
  ];
}

/** The tasks that make a variant's APK, without the final assemble lifecycle task. */
function packageChain(v: VariantModel): PlannedTask[] {
  const V = capitalize(v.name);
  const dex = v.buildType.minified
    ? [
        work(`generate${V}LintVitalReportModel`, v),
        work(`lintVitalAnalyze${V}`, v),
        work('extractProguardFiles', v),
        work(`merge${V}GeneratedProguardFiles`, v),
        work(`expand${V}ArtProfileWildcards`, v),
        work(`minify${V}WithR8`, v, { kind: 'mapping', variant: v }),
        work(`merge${V}ArtProfile`, v),
        work(`compile${V}ArtProfile`, v),
      ]
    : [
        work(`dexBuilder${V}`, v),
        work(`merge${V}GlobalSynthetics`, v),
        work(`mergeExtDex${V}`, v),
        work(`mergeLibDex${V}`, v),
        work(`mergeProjectDex${V}`, v),
        work(`desugar${V}FileDependencies`, v),
      ];
  return [
    ...compileChain(v),
    ...dex,
    work(`process${V}JavaRes`, v),
    work(`merge${V}JavaResource`, v),
    work(`check${V}DuplicateClasses`, v),
    work(`merge${V}Shaders`, v),
    noSource(`compile${V}Shaders`),
    lifecycle(`generate${V}Assets`),
    work(`merge${V}Assets`, v),
    work(`compress${V}Assets`, v),
    work(`validateSigning${V}`, v),
    work(`write${V}AppMetadata`, v),
    work(`write${V}SigningConfigVersions`, v),
    work(`package${V}`, v, { kind: 'package', variant: v }),
    work(`create${V}ApkListingFileRedirect`, v),
    ...(v.buildType.minified ? [work(`lintVitalReport${V}`, v), lifecycle(`lintVital${V}`)] : []),
  ];
}

function unitTestChain(v: VariantModel): PlannedTask[] {
  const V = capitalize(v.name);
  return [
    ...compileChain(v),
    lifecycle(`pre${V}UnitTestBuild`),
    work(`generate${V}UnitTestStubRFile`, v),
    work(`compile${V}UnitTestKotlin`, v),
    work(`javaPreCompile${V}UnitTest`, v),
    noSource(`compile${V}UnitTestJavaWithJavac`),
    noSource(`process${V}UnitTestJavaRes`),
    always(work(`test${V}UnitTest`, v, { kind: 'unitTests', variant: v })),
  ];
}

function connectedChain(v: VariantModel): PlannedTask[] {
  const V = capitalize(v.name);
  return [
    ...packageChain(v),
    lifecycle(`pre${V}AndroidTestBuild`),
    work(`process${V}AndroidTestManifest`, v),
    work(`process${V}AndroidTestResources`, v),
    work(`compile${V}AndroidTestKotlin`, v),
    work(`dexBuilder${V}AndroidTest`, v),
    work(`mergeProjectDex${V}AndroidTest`, v),
    work(`package${V}AndroidTest`, v),
    always(work(`connected${V}AndroidTest`, v, { kind: 'connected', variant: v })),
  ];
}

function lintChain(v: VariantModel): PlannedTask[] {
  const V = capitalize(v.name);
  return [
    work(`generate${V}LintReportModel`, v),
    work(`lintAnalyze${V}`, v),
    always(work(`lintReport${V}`, v, { kind: 'lintReport', variant: v })),
    lifecycle(`lint${V}`),
  ];
}

/** Entry tasks of the app project by name, each expanding to what Gradle would run. */
function appCatalogue(model: BuildModel): Map<string, Expansion> {
  const cat = new Map<string, Expansion>();
  const variants = model.variants;
  const testVariants = variants.filter((v) => v.buildType.name === 'debug');
  const defaultVariant = testVariants[0] ?? variants[0];
  const assembleOf = (vs: VariantModel[], name: string): Expansion => {
    return () => [
      ...vs.flatMap((v) => [...packageChain(v), lifecycle(`assemble${capitalize(v.name)}`)]),
      lifecycle(name),
    ];
  };
  for (const v of variants) {
    const V = capitalize(v.name);
    cat.set(`assemble${V}`, () => [...packageChain(v), lifecycle(`assemble${V}`)]);
    if (v.buildType.signed) {
      cat.set(`install${V}`, () => [
        ...packageChain(v),
        always(work(`install${V}`, v, { kind: 'install', variant: v })),
      ]);
    }
    cat.set(`uninstall${V}`, () => [always(work(`uninstall${V}`, v, { kind: 'uninstall', variant: v }))]);
    cat.set(`test${V}UnitTest`, () => unitTestChain(v));
    cat.set(`lint${V}`, () => lintChain(v));
  }
  for (const v of testVariants) {
    cat.set(`connected${capitalize(v.name)}AndroidTest`, () => connectedChain(v));
  }
  for (const bt of model.buildTypes) {
    if (model.flavors.length > 0) {
      const name = `assemble${capitalize(bt.name)}`;
      cat.set(
        name,
        assembleOf(
          variants.filter((v) => v.buildType.name === bt.name),
          name,
        ),
      );
    }
  }
  for (const f of model.flavors) {
    const name = `assemble${capitalize(f.name)}`;
    cat.set(
      name,
      assembleOf(
        variants.filter((v) => v.flavor === f.name),
        name,
      ),
    );
  }
  cat.set('assemble', assembleOf(variants, 'assemble'));
  cat.set('uninstallAll', () => [
    ...variants.flatMap((v) => cat.get(`uninstall${capitalize(v.name)}`)!()),
    lifecycle('uninstallAll'),
  ]);
  cat.set('test', () => [...variants.flatMap(unitTestChain), lifecycle('test')]);
  cat.set('connectedAndroidTest', () => [
    ...testVariants.flatMap(connectedChain),
    lifecycle('connectedAndroidTest'),
  ]);
  cat.set('connectedCheck', () => [...cat.get('connectedAndroidTest')!(), lifecycle('connectedCheck')]);
  if (defaultVariant) {
    cat.set('lint', () => [...lintChain(defaultVariant), lifecycle('lint')]);
  }
  cat.set('check', () => [...(cat.get('lint')?.() ?? []), ...cat.get('test')!(), lifecycle('check')]);
  cat.set('build', () => [...cat.get('assemble')!(), ...cat.get('check')!(), lifecycle('build')]);
  cat.set('clean', () => [always(work('clean', undefined, { kind: 'clean' }))]);
  return cat;
}

const ROOT_TASKS: Record<string, TaskAction> = { tasks: { kind: 'tasksReport' }, help: { kind: 'help' } };

/** Entry task names runnable from the root project, for the `tasks` report and suggestions. */
export function entryTaskNames(model: BuildModel): string[] {
  return [...appCatalogue(model).keys(), ...Object.keys(ROOT_TASKS)];
}

function notFound(name: string, where: string, candidates: string[]): string {
  const near = candidates.filter((c) => isNear(name, c)).slice(0, 3);
  const hint = near.length > 0 ? ` Some candidates are: ${near.map((c) => `'${c}'`).join(', ')}.` : '';
  return `Task '${name}' not found in ${where}.${hint}`;
}

/** A candidate is near when it only adds one camel-case word (installDebug → installDemoDebug). */
function isNear(name: string, candidate: string): boolean {
  const words = candidate.split(/(?=[A-Z])/);
  return words.some((_, i) => words.length > 1 && words.filter((__, j) => j !== i).join('') === name);
}

/** Resolves the command line's task names (minus `-x` exclusions) into the tasks to run. */
export function planBuild(
  model: BuildModel,
  requested: readonly string[],
  excluded: readonly string[],
): PlanResult {
  const cat = appCatalogue(model);
  const tasks: PlannedTask[] = [];
  const seen = new Set<string>();
  const excludedNames = new Set(excluded.map((e) => e.split(':').pop()!));
  const root = `root project '${model.rootProject}'`;
  for (const raw of requested.length > 0 ? requested : ['help']) {
    const parts = raw.split(':');
    const name = parts.pop()!;
    const project = parts.filter((p) => p !== '').join(':');
    const absolute = raw.startsWith(':');
    let expansion: PlannedTask[] | undefined;
    if (project !== '' && project !== 'app') {
      return { ok: false, message: `Project '${project}' not found in ${root}.` };
    }
    if (project === '' && absolute) {
      // `:tasks` names the root project itself, which has only Gradle's built-in tasks.
      const action = ROOT_TASKS[name];
      if (!action) {
        return { ok: false, message: notFound(name, root, Object.keys(ROOT_TASKS)) };
      }
      expansion = [{ ...lifecycle(name, ''), type: 'work', alwaysRuns: true, action }];
    } else if (project === 'app') {
      expansion = cat.get(name)?.();
      if (!expansion) {
        return { ok: false, message: notFound(name, `project '${APP}'`, [...cat.keys()]) };
      }
    } else {
      const action = ROOT_TASKS[name];
      expansion = action
        ? [{ ...lifecycle(name, ''), type: 'work', alwaysRuns: true, action }]
        : cat.get(name)?.();
      if (!expansion) {
        return { ok: false, message: notFound(name, root, [...cat.keys()]) };
      }
    }
    for (const t of expansion) {
      const taskName = t.path.split(':').pop()!;
      if (!seen.has(t.path) && !excludedNames.has(taskName)) {
        seen.add(t.path);
        tasks.push(t);
      }
    }
  }
  return { ok: true, tasks };
}
