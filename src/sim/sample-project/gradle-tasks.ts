/**
 * The task graph the gradlew stand-in pretends to run: for each entry task (assemble…, install…,
 * test…, connected…, lint…, clean, tasks) the ordered list of AGP 8 tasks Gradle would execute,
 * resolved from the command line's task names the way Gradle selects them (`name`, `:app:name`,
 * `app:name`). Unknown names fail with Gradle's own wording.
 *
 * Evidence: selection is Gradle's NameMatcher (project/gradle-name-matcher.ts, ported from Gradle 8
 * and held to its NameMatcherTest.groovy); an unqualified name is matched among the tasks of the
 * root and every subproject, as Gradle's DefaultTaskSelector does, a selected name runs in each
 * project that has it, and `:name` means the root project's task. The messages are
 * NameMatcher.formatErrorMessage's ("… is ambiguous in …. Candidates are: …", "Some candidates
 * are: …"). The AGP chains are from AGP 8 `--console=plain` output; a task named from inside a
 * chain runs what precedes it there (its dependencies in the real graph).
 */
import { matchName, nameMatchError } from '../../project/gradle-name-matcher.js';
import { capitalize, type BuildModel, type VariantModel } from './build-model.js';
import { pluginById } from './plugin-tasks.js';

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
  | { kind: 'properties' }
  | { kind: 'remote' }
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

const ROOT_TASKS: Record<string, TaskAction> = {
  tasks: { kind: 'tasksReport' },
  help: { kind: 'help' },
  properties: { kind: 'properties' },
};

/** Entry task names runnable from the root project, for the `tasks` report. */
export function entryTaskNames(model: BuildModel): string[] {
  return [...appCatalogue(model).keys(), ...Object.keys(ROOT_TASKS)];
}

/** A plugin's task: no inputs, always runs; a leaving one records what would have left (`remote`). */
function pluginTask(project: string, name: string, leaves: boolean): PlannedTask {
  return {
    path: `${project}:${name}`,
    type: 'work',
    alwaysRuns: true,
    ...(leaves ? { action: { kind: 'remote' } as const } : {}),
  };
}

/** Every task of each project (`''` the root, `app`), as Gradle's task containers hold them. */
export function projectTasks(model: BuildModel): Map<string, Map<string, Expansion>> {
  const app = new Map<string, Expansion>();
  const cat = appCatalogue(model);
  for (const [name, expand] of cat) {
    app.set(name, expand);
  }
  // The tasks entry tasks depend on run too when named (`compileDemoDebugKotlin`): what precedes them.
  for (const expand of cat.values()) {
    const list = expand();
    list.forEach((t, i) => {
      const [project, name] = [t.path.slice(0, t.path.lastIndexOf(':')), t.path.split(':').pop()!];
      if (project === APP && !app.has(name)) {
        app.set(name, () => list.slice(0, i + 1));
      }
    });
  }
  const root = new Map<string, Expansion>(
    Object.entries(ROOT_TASKS).map(([name, action]) => [
      name,
      () => [{ ...lifecycle(name, ''), type: 'work', alwaysRuns: true, action }],
    ]),
  );
  const variants = model.variants.map((v) => v.name);
  const buildTypes = model.buildTypes.map((b) => b.name);
  for (const id of model.plugins) {
    const plugin = pluginById(id);
    const [project, into] = plugin?.root ? ['', root] : [APP, app];
    for (const t of plugin?.tasks(variants, buildTypes) ?? []) {
      into.set(t.name, () => [pluginTask(project, t.name, t.leaves)]);
    }
  }
  return new Map([
    ['', root],
    ['app', app],
  ]);
}

/** Resolves the command line's task names (minus `-x` exclusions) as Gradle selects them. */
export function planBuild(
  model: BuildModel,
  requested: readonly string[],
  excluded: readonly string[],
): PlanResult {
  const projects = projectTasks(model);
  const tasks: PlannedTask[] = [];
  const seen = new Set<string>();
  const excludedNames = new Set(excluded.map((e) => e.split(':').pop()!));
  const root = `root project '${model.rootProject}'`;
  for (const raw of requested.length > 0 ? requested : ['help']) {
    const parts = raw.split(':');
    const name = parts.pop()!;
    const path = parts.filter((p) => p !== '');
    let where: [string, Map<string, Expansion>][];
    if (path.length > 0) {
      // A project path: each segment is matched among the child projects, as Gradle matches names.
      const project = matchName(path.join(':'), ['app']);
      if (project.selected === null || path.length > 1) {
        return { ok: false, message: `Project '${path.join(':')}' not found in ${root}.` };
      }
      where = [['app', projects.get('app')!]];
    } else if (raw.startsWith(':')) {
      where = [['', projects.get('')!]];
    } else {
      where = [...projects];
    }
    const names = where.flatMap(([, tasksOf]) => [...tasksOf.keys()]);
    const match = matchName(name, names);
    if (match.selected === null) {
      const context = where.length === 1 && where[0]![0] === 'app' ? `project '${APP}'` : root;
      return { ok: false, message: nameMatchError('Task', name, context, match) };
    }
    // The selected name runs in every project (of those searched) that has it.
    const expansion = where.flatMap(([, tasksOf]) => tasksOf.get(match.selected!)?.() ?? []);
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
