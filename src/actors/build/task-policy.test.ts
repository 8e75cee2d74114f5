import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchName } from '../../project/gradle-name-matcher.js';
import { PLUGINS, variantName, type BuildModel, projectTasks } from '../../sim/index.js';
import { settingsSchema } from '../../store/settings.js';
import { leavingReason, taskWords } from './leaving-tasks.js';
import { checkGradleTask, judgeDryRun, standardTaskNames, type ProjectTasks } from './task-policy.js';

const cap = (w: string): string => (w.length === 0 ? w : w[0]!.toUpperCase() + w.slice(1));

/** A generated project: its task list by project path and each task's label from the plugins' docs. */
interface GeneratedProject {
  tasks: Map<string, Set<string>>;
  /** Tasks the plugins' documentation says leave the machine (and AGP's uninstall tasks). */
  leaving: Set<string>;
}

/** Every task AGP 8 runs for these variants, as the gradlew stand-in plans them (from real AGP output). */
function agpTasks(flavors: string[], buildTypes: string[]): string[] {
  const types = buildTypes.map((name) => ({
    name,
    applicationIdSuffix: '',
    minified: name !== 'debug',
    signed: true,
  }));
  const model: BuildModel = {
    rootProject: 'p',
    namespace: 'a.b',
    applicationId: 'a.b',
    versionCode: 1,
    versionName: '1',
    minSdk: 24,
    targetSdk: 35,
    buildTypes: types,
    flavors: flavors.map((name) => ({ name, applicationIdSuffix: '' })),
    variants: (flavors.length > 0 ? flavors : [null]).flatMap((flavor) =>
      types.map((buildType) => ({
        name: variantName(flavor, buildType.name),
        flavor,
        buildType,
        applicationId: 'a.b',
      })),
    ),
    plugins: [],
  };
  return [...projectTasks(model).get('app')!.keys()];
}

function generateProject(
  flavors: string[],
  buildTypes: string[],
  pluginIds: string[],
  withLib: boolean,
): GeneratedProject {
  const variants = (flavors.length > 0 ? flavors : ['']).flatMap((f) =>
    buildTypes.map((b) => (f === '' ? b : f + cap(b))),
  );
  const leaving = new Set<string>(['uninstallAll', ...variants.map((v) => `uninstall${cap(v)}`)]);
  const root = new Set(['help', 'tasks', 'projects', 'properties', 'buildEnvironment', 'dependencies']);
  const app = new Set([...standardTaskNames(variants), ...agpTasks(flavors, buildTypes), ...leaving]);
  for (const plugin of PLUGINS.filter((p) => pluginIds.includes(p.id))) {
    for (const t of plugin.tasks(variants, buildTypes)) {
      (plugin.root ? root : app).add(t.name);
      if (t.leaves) {
        leaving.add(t.name);
      }
    }
  }
  const tasks = new Map([
    [':', root],
    [':app', app],
  ]);
  if (withLib) {
    tasks.set(':lib', standardTaskNames(buildTypes));
  }
  return { tasks, leaving };
}

/**
 * What Gradle selects for a command-line name (its TaskSelector, written here apart from the
 * policy): an unqualified name among every project's tasks, `:name` among the root's, `p:name`
 * among the tasks of the project the path selects.
 */
function gradleSelects(task: string, tasks: ProjectTasks): string[] {
  const parts = task.replace(/^:/, '').split(':');
  const name = parts.pop()!;
  if (parts.length === 0) {
    const pool = task.startsWith(':')
      ? [...(tasks.get(':') ?? [])]
      : [...tasks.values()].flatMap((s) => [...s]);
    return matchName(name, pool).matches;
  }
  const children = [...tasks.keys()].filter((p) => p !== ':').map((p) => p.slice(1));
  const project = matchName(parts.join(':'), children).selected;
  return project === null ? [] : matchName(name, tasks.get(`:${project}`) ?? []).matches;
}

/** What an agent could type for a task: the name, its case forms, camel-case and kebab abbreviations, prefixes. */
function namesFor(target: string, lengths: number[], how: number, prefix: string): string {
  const words = taskWords(target);
  const cut = words.map((w, i) => w.slice(0, Math.max(1, lengths[i % lengths.length]! % (w.length + 1))));
  const keep = Math.max(1, words.length - (how % 3));
  const camel = cut
    .slice(0, keep)
    .map((w, i) => (i === 0 ? w : cap(w)))
    .join('');
  const forms = [
    target,
    target.toLowerCase(),
    target.toUpperCase(),
    cap(target),
    camel,
    cap(camel),
    camel.toUpperCase(),
    cut.slice(0, keep).join('-'),
    target.slice(0, 1 + (lengths[0]! % target.length)),
    cap(target.slice(0, 1 + (lengths[0]! % target.length))),
  ];
  return prefix + forms[how % forms.length]!;
}

/** A small seeded generator (mulberry32): `next(n)` is an integer in [0, n). */
function random(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const NAMES_PER_PROJECT = 120;
const PREFIXES = ['', '', '', ':', 'app:', ':app:', ':a:', ':lib:'];

const projectArb = fc
  .record({
    flavors: fc.subarray(['demo', 'full', 'free', 'paid'], { maxLength: 2 }),
    extraTypes: fc.subarray(['staging', 'benchmark'], { maxLength: 1 }),
    plugins: fc.subarray(PLUGINS.map((p) => p.id)),
    withLib: fc.boolean(),
  })
  .map((r) => generateProject(r.flavors, ['debug', 'release', ...r.extraTypes], r.plugins, r.withLib));

describe('Gradle task policy', () => {
  it('refuses every generated name Gradle resolves to a leaving task; safe names still run', () => {
    const counts = { names: 0, leaving: 0, leavingAllowed: 0, safeSelected: 0, ambiguousSafe: 0 };
    const wrong: string[] = [];
    fc.assert(
      fc.property(projectArb, fc.integer(), (project, seed) => {
        const all = [...project.tasks.values()].flatMap((s) => [...s]);
        const leavingTasks = [...project.leaving];
        const opts = { allowUnrestricted: false, tasks: project.tasks };
        const next = random(seed);
        for (let i = 0; i < NAMES_PER_PROJECT; i++) {
          const lengths = Array.from({ length: 1 + next(6) }, () => 1 + next(9));
          const prefix = PREFIXES[next(PREFIXES.length)]!;
          // Half the names aim at a leaving task, half at any.
          const pool = next(2) === 0 && leavingTasks.length > 0 ? leavingTasks : all;
          const task = namesFor(pool[next(pool.length)]!, lengths, next(1000), prefix);
          const selects = gradleSelects(task, project.tasks);
          const check = checkGradleTask(task, opts);
          counts.names++;
          const leaving = selects.find((t) => project.leaving.has(t) || t === 'properties');
          if (leaving !== undefined) {
            counts.leaving++;
            if (check.ok || !check.reason.includes(leaving)) {
              counts.leavingAllowed += check.ok ? 1 : 0;
              wrong.push(`${task} → ${selects.join(', ')}: ${JSON.stringify(check)}`);
            }
          } else if (selects.length === 1 && /^(assemble|lint|test|compile|bundle)/.test(selects[0]!)) {
            counts.safeSelected++;
            if (!check.ok) {
              wrong.push(`${task} → ${selects[0]} refused: ${check.reason}`);
            }
          } else if (selects.length > 1) {
            // Ambiguous among safe tasks: allowed only through Gradle's dry run, which fails it.
            counts.ambiguousSafe++;
            if (!check.ok || !check.dryRun) {
              wrong.push(`${task} → ambiguous ${selects.join(', ')}: ${JSON.stringify(check)}`);
            }
          }
        }
      }),
      { numRuns: 260 },
    );
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(counts.names).toBeGreaterThanOrEqual(30_000);
    expect(counts.leavingAllowed).toBe(0);
    expect(counts.leaving).toBeGreaterThan(10_000);
    expect(counts.safeSelected).toBeGreaterThan(1_000);
    process.stderr.write(`task policy property: ${JSON.stringify(counts)}\n`);
  });

  it('refuses the issue’s names on a project with the publishing plugins, naming the task Gradle would run', () => {
    const { tasks } = generateProject(
      ['demo', 'full'],
      ['debug', 'release'],
      PLUGINS.map((p) => p.id),
      false,
    );
    const opts = { allowUnrestricted: false, tasks };
    const cases: [string, string][] = [
      ['CloseAnd', 'closeAndReleaseSonatypeStagingRepository'],
      ['Initialize', 'initializeSonatypeStagingRepository'],
      ['InitSonStaRepo', 'initializeSonatypeStagingRepository'],
      ['closeSSRep', 'closeSonatypeStagingRepository'],
      ['Fi', 'findSonatypeStagingRepository'],
      ['em', 'emergeUploadDemoReleaseAab'],
      ['Cr', 'createRelease'],
      ['sonar', 'sonar'],
      ['jib', 'jib'],
      ['dockerPush', 'dockerPush'],
      ['properties', 'properties'],
      ['runFlank', 'runFlank'],
      ['bugsnagReleaseDemoReleaseTask', 'bugsnagReleaseDemoReleaseTask'],
      ['retrieveSonatypeStagingProfile', 'retrieveSonatypeStagingProfile'],
      ['bootstrapListing', 'bootstrapListing'],
      ['pushRelease', 'pushRelease'],
      ['sonarqube', 'sonarqube'],
      [':app:pDRB', 'publishDemoReleaseBundle'],
    ];
    for (const [task, named] of cases) {
      const r = checkGradleTask(task, opts);
      expect(r.ok, task).toBe(false);
      expect(!r.ok && r.blocked, task).toBe(true);
      expect(!r.ok && r.reason, task).toContain(named);
    }
    expect(checkGradleTask('assembleDebug', opts)).toMatchObject({ ok: true });
    expect(checkGradleTask('assembleDemoD', opts)).toEqual({ ok: true, dryRun: true });
    expect(checkGradleTask('lint', opts)).toMatchObject({ ok: true });
    // The user's permissions.
    expect(checkGradleTask('properties', { ...opts, allowPropertyDumps: true })).toMatchObject({ ok: true });
    expect(checkGradleTask('CloseAnd', { ...opts, allowUnrestricted: true })).toEqual({
      ok: true,
      dryRun: false,
    });
  });

  it('a project that applies no leaving plugin runs exact names without a dry run', () => {
    const { tasks } = generateProject([], ['debug', 'release'], [], false);
    tasks.get(':app')!.delete('uninstallAll');
    for (const n of [...tasks.get(':app')!]) {
      if (n.startsWith('uninstall')) {
        tasks.get(':app')!.delete(n);
      }
    }
    const opts = { allowUnrestricted: false, tasks };
    expect(checkGradleTask('assembleDebug', opts)).toEqual({ ok: true, dryRun: false });
    expect(checkGradleTask('aD', opts)).toEqual({ ok: true, dryRun: true });
  });

  it('without a task list runs only exact standard names', () => {
    const opts = {
      allowUnrestricted: false,
      tasks: null,
      standard: standardTaskNames(['debug', 'release']),
    };
    expect(checkGradleTask('assembleDebug', opts)).toEqual({ ok: true, dryRun: false });
    expect(checkGradleTask(':app:testDebugUnitTest', opts)).toEqual({ ok: true, dryRun: false });
    for (const t of [
      'aD',
      'assembleD',
      'Cr',
      'closeAndReleaseSonatypeStagingRepository',
      'properties',
      'myTask',
    ]) {
      const r = checkGradleTask(t, opts);
      expect(r.ok, t).toBe(false);
    }
    const r = checkGradleTask('aD', opts);
    expect(!r.ok && r.reason).toContain('could not read the project');
  });

  it("judges Gradle's dry run: a leaving task in the graph refuses the invocation", () => {
    const opts = { allowUnrestricted: false, tasks: null };
    const graph = [':app:preBuild', ':app:minifyReleaseWithR8', ':app:assembleRelease'];
    expect(judgeDryRun('assembleRelease', graph, opts)).toEqual({ ok: true, dryRun: false });
    const r = judgeDryRun('assembleRelease', [...graph, ':app:uploadCrashlyticsMappingFileRelease'], opts);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toContain(':app:uploadCrashlyticsMappingFileRelease (it uploads');
  });

  it('unrestricted mode allows blocked names but never an option or a malformed name', () => {
    const opts = { allowUnrestricted: true, tasks: null };
    expect(checkGradleTask('publishReleaseBundle', opts)).toEqual({ ok: true, dryRun: false });
    expect(checkGradleTask('--init-script=/tmp/x.gradle', opts).ok).toBe(false);
    expect(checkGradleTask('-q', opts).ok).toBe(false);
    expect(checkGradleTask('assembleDebug --offline', opts).ok).toBe(false);
  });

  it('refuses options, bad characters, empty segments and over-long names, with a reason', () => {
    const cases: unknown[] = [
      '-PsomeProp=1',
      '--offline',
      '',
      ':',
      'app::assemble',
      'a;b',
      'a b',
      'x/y',
      'ä',
      ':app:-x',
      'a'.repeat(201),
      42,
      null,
    ];
    for (const t of cases) {
      const r = checkGradleTask(t, { allowUnrestricted: false, tasks: null });
      expect(r.ok, String(t)).toBe(false);
      expect(!r.ok && r.reason.length).toBeGreaterThan(10);
    }
    const refused = checkGradleTask('publishReleaseBundle', { allowUnrestricted: false, tasks: new Map() });
    // The setting's key as settings.json spells it (the store's schema), where it lives.
    expect(!refused.ok && refused.reason).toContain('"allow_unrestricted_gradle": true under "mcp"');
    const settings = settingsSchema.parse({
      mcp: { allow_unrestricted_gradle: true, allow_gradle_properties: true },
    });
    expect(settings.mcp.allow_unrestricted_gradle).toBe(true);
    expect(settings.mcp.allow_gradle_properties).toBe(true);
  });

  it('any string outside the task charset is refused, whatever the mode', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => /[^A-Za-z0-9_.:-]/.test(s)),
        fc.boolean(),
        (s, allowUnrestricted) => {
          expect(checkGradleTask(s, { allowUnrestricted, tasks: null }).ok).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('labels every plugin task as its documentation does: the rule table agrees with each label', () => {
    const variants = ['debug', 'release', 'demoDebug', 'demoRelease'];
    for (const plugin of PLUGINS) {
      for (const t of plugin.tasks(variants, ['debug', 'release'])) {
        expect(leavingReason(t.name) !== null, `${plugin.id}: ${t.name}`).toBe(t.leaves);
      }
    }
    for (const t of [...standardTaskNames(variants), ...agpTasks(['demo'], ['debug', 'release'])]) {
      expect(leavingReason(t) === null || t.startsWith('uninstall'), t).toBe(true);
    }
    for (const t of agpTasks([], ['debug', 'release'])) {
      expect(leavingReason(t) === null || t.startsWith('uninstall'), t).toBe(true);
    }
  });
});
