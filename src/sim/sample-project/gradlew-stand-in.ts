/**
 * The sample project's Gradle: a process (`gradlew` execs it) that prints what Gradle 8 with AGP 8
 * prints in plain console mode for assemble/install/test/connected/lint/clean/tasks, paced over
 * SIM_GRADLE_DURATION_MS, and writes the real outputs (APK, output-metadata.json, mapping.txt).
 * SIM_GRADLE_REPLAY=FILE prints a recorded Gradle output instead; SIM_GRADLE_LINES_PER_SEC adds
 * --info style lines at that rate (the build-throughput benchmark). Cancelled by SIGTERM/SIGINT.
 *
 * This is a CLI process of its own, so it writes to stdout (Gradle's output is its product).
 */
import { once } from 'node:events';
import { appendFileSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { readBuildModel, type BuildModel, type VariantModel } from './build-model.js';
import { planBuild, type PlannedTask, type TaskAction } from './gradle-tasks.js';
import { parseGradleArgs, type GradleArgs } from './stand-in-args.js';
import {
  DeviceError,
  installApk,
  killRunningAdb,
  listDevices,
  uninstallPackage,
} from './stand-in-devices.js';
import { ConnectedFailure, runConnectedTests } from './stand-in-connected.js';
import {
  apkFileName,
  apkPath,
  cleanBuildDir,
  isUpToDate,
  kotlinWarnings,
  markUpToDate,
  writeLintReport,
  writeVariantApk,
  writeVariantMapping,
} from './stand-in-outputs.js';
import {
  actionableSummary,
  DEPRECATION_SUMMARY,
  failureBlock,
  formatDuration,
  helpReport,
  propertiesReport,
  TASK_SELECTION_TRY,
  tasksReport,
  versionReport,
  type FailureReport,
} from './stand-in-report.js';

const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

function numberEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Writes lines to stdout or stderr, waiting for the pipe to drain so memory stays flat. */
async function emit(lines: readonly string[], stream: NodeJS.WriteStream = process.stdout): Promise<void> {
  if (lines.length === 0) {
    return;
  }
  if (!stream.write(lines.join('\n') + '\n')) {
    await once(stream, 'drain');
  }
}

const FLOOD_TEMPLATES = [
  (i: number) =>
    `Transforming kotlin-stdlib-2.0.21.jar (org.jetbrains.kotlin:kotlin-stdlib:2.0.21) with DexingNoClasspathTransform #${i}`,
  (i: number) =>
    `Caching disabled for task ':app:compileDemoDebugKotlin' because: Build cache is disabled (${i})`,
  (i: number) =>
    `Resolved artifact ${i}: androidx.core:core:1.13.1 from https://dl.google.com/dl/android/maven2/`,
  (i: number) => `Skipping transform ${i}: no changes since the last run of AarToClassTransform`,
];

/** Paces the build over its duration and floods info lines at the configured rate meanwhile. */
class Pacer {
  private readonly start = performance.now();
  private flooded = 0;

  constructor(
    public durationMs: number,
    private readonly linesPerSec: number,
  ) {}

  elapsed(): number {
    return performance.now() - this.start;
  }

  /** Waits until `atMs` after the start, writing owed flood lines every ~10 ms. */
  async until(atMs: number): Promise<void> {
    for (;;) {
      const now = this.elapsed();
      if (this.linesPerSec > 0) {
        const owed = Math.min(Math.floor((now * this.linesPerSec) / 1000) - this.flooded, 20_000);
        if (owed > 0) {
          const batch: string[] = [];
          for (let k = 0; k < owed; k++) {
            const i = this.flooded + k;
            batch.push(FLOOD_TEMPLATES[i % FLOOD_TEMPLATES.length]!(i));
          }
          this.flooded += owed;
          await emit(batch);
        }
      }
      if (now >= atMs) {
        return;
      }
      await sleep(Math.min(atMs - now, this.linesPerSec > 0 ? 10 : atMs - now));
    }
  }
}

/** A task that failed: Gradle's "Execution failed for task" causes. */
class TaskFailure extends Error {
  /** `output`: what the task printed before it failed (under its `> Task` line). */
  constructor(
    readonly causes: string[],
    readonly output: string[] = [],
  ) {
    super(causes.join('; '));
  }
}

function findProjectDir(args: GradleArgs): string | undefined {
  if (args.projectDir !== undefined) {
    return resolve(args.projectDir);
  }
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'settings.gradle.kts')) || existsSync(join(dir, 'settings.gradle'))) {
      return dir;
    }
    if (dirname(dir) === dir) {
      break;
    }
  }
  return process.env['SIM_GRADLE_PROJECT_DIR'] || undefined;
}

/**
 * AndroidJUnitRunner's arguments from `-Pandroid.testInstrumentationRunnerArguments.KEY=VALUE`
 * (AGP hands each to the instrumentation as `-e KEY VALUE`).
 */
function runnerArgsOf(properties: Readonly<Record<string, string>>): Map<string, string> {
  const prefix = 'android.testInstrumentationRunnerArguments.';
  return new Map(
    Object.entries(properties)
      .filter(([k]) => k.startsWith(prefix))
      .map(([k, v]) => [k.slice(prefix.length), v]),
  );
}

/** Runs one task's side effects; returns the lines it prints after its header. */
async function runAction(
  action: TaskAction,
  projectDir: string,
  model: BuildModel,
  path: string,
  all: boolean,
  properties: Readonly<Record<string, string>> = {},
): Promise<string[]> {
  switch (action.kind) {
    case 'kotlin':
      return kotlinWarnings(projectDir, model.namespace);
    case 'mapping':
      writeVariantMapping(projectDir, action.variant);
      return [];
    case 'package':
      writeVariantApk(projectDir, model, action.variant);
      markUpToDate(projectDir, model, action.variant);
      return [];
    case 'install':
      return install(projectDir, action.variant);
    case 'uninstall': {
      const devices = await devicesOrFail();
      for (const d of devices) {
        await uninstallPackage(d, action.variant.applicationId);
      }
      return [
        ...devices.map(
          (d) =>
            `Uninstalling ${action.variant.applicationId} (from app:${action.variant.name}) from device '${d.name}' (${d.serial}).`,
        ),
        `Uninstalled ${action.variant.applicationId} from ${devices.length} device${devices.length === 1 ? '' : 's'}.`,
      ];
    }
    case 'connected': {
      const devices = await devicesOrFail();
      try {
        return await runConnectedTests(projectDir, model, action.variant, devices, runnerArgsOf(properties));
      } catch (err) {
        if (err instanceof ConnectedFailure) {
          throw new TaskFailure(err.causes, err.output);
        }
        throw new TaskFailure([err instanceof DeviceError ? err.message : String(err)]);
      }
    }
    case 'unitTests':
      return [];
    case 'lintReport':
      return [`Wrote HTML report to ${writeLintReport(projectDir, action.variant)}`];
    case 'clean':
      cleanBuildDir(projectDir);
      return [];
    case 'tasksReport':
      return tasksReport(model, all);
    case 'properties':
      return propertiesReport(projectDir, model);
    case 'remote':
      return recordRemote(projectDir, path);
    case 'help':
      return helpReport();
  }
}

/** Where a task that would have left the machine is recorded, for tests to see what Gradle ran. */
export function remoteLogPath(projectDir: string): string {
  return join(projectDir, 'build', 'sim-remote-actions.log');
}

/** A leaving plugin task "runs": nothing leaves; the task is appended to the remote log. */
function recordRemote(projectDir: string, path: string): string[] {
  const log = remoteLogPath(projectDir);
  mkdirSync(dirname(log), { recursive: true });
  appendFileSync(log, `${new Date().toISOString()} ${path}\n`);
  return [
    `(simulated) ${path} would have sent its work off this machine; recorded in build/sim-remote-actions.log`,
  ];
}

async function devicesOrFail(): Promise<Awaited<ReturnType<typeof listDevices>>> {
  try {
    return await listDevices();
  } catch (err) {
    throw new TaskFailure([(err as Error).message]);
  }
}

async function install(projectDir: string, v: VariantModel): Promise<string[]> {
  const devices = await devicesOrFail();
  const lines: string[] = [];
  for (const d of devices) {
    lines.push(`Installing APK '${apkFileName(v)}' on '${d.name}' for :app:${v.name}`);
    try {
      await installApk(d, apkPath(projectDir, v));
    } catch (err) {
      throw new TaskFailure([err instanceof DeviceError ? err.message : String(err)]);
    }
  }
  lines.push(`Installed on ${devices.length} device${devices.length === 1 ? '' : 's'}.`);
  return lines;
}

/** Prints a recorded Gradle output over the configured duration; fails as the recording did. */
async function replay(file: string, pacer: Pacer): Promise<number> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    await emit([`SIM_GRADLE_REPLAY: cannot read ${file}: ${(err as Error).message}`], process.stderr);
    return 1;
  }
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    await pacer.until((i / lines.length) * pacer.durationMs);
    await emit([lines[i]!]);
  }
  await pacer.until(pacer.durationMs);
  return text.includes('BUILD FAILED') || lines.some((l) => l.startsWith('FAILURE:')) ? 1 : 0;
}

async function fail(
  report: FailureReport,
  args: GradleArgs,
  pacer: Pacer,
  summary?: string,
): Promise<number> {
  await emit(failureBlock(report, args.stacktrace), process.stderr);
  await emit([`BUILD FAILED in ${formatDuration(pacer.elapsed())}`], process.stderr);
  if (summary !== undefined) {
    await emit([summary]);
  }
  return 1;
}

async function build(args: GradleArgs, pacer: Pacer): Promise<number> {
  const projectDir = findProjectDir(args);
  if (projectDir === undefined) {
    return fail(
      {
        summary: `Directory '${process.cwd()}' does not contain a Gradle build.`,
        exception: 'org.gradle.api.GradleException',
      },
      args,
      pacer,
    );
  }
  const model = readBuildModel(projectDir);
  const plan = planBuild(model, args.tasks, args.excluded);
  if (!plan.ok) {
    return fail(
      {
        summary: plan.message,
        exception: 'org.gradle.execution.TaskSelectionException',
        tryFirst: TASK_SELECTION_TRY,
      },
      args,
      pacer,
    );
  }
  const daemonMarker = join(projectDir, '.gradle', 'droidbus-stand-in-daemon');
  if (!existsSync(daemonMarker) && !args.quiet) {
    await emit(['Starting a Gradle Daemon (subsequent builds will be faster)']);
    mkdirSync(dirname(daemonMarker), { recursive: true });
    writeFileSync(daemonMarker, String(process.pid));
  }
  const upToDate = new Set<string>();
  for (const v of model.variants) {
    if (!args.rerunTasks && isUpToDate(projectDir, model, v)) {
      upToDate.add(v.name);
    }
  }
  let executed = 0;
  let skippedUpToDate = 0;
  const tasks = plan.tasks;
  for (let i = 0; i < tasks.length; i++) {
    const task: PlannedTask = tasks[i]!;
    await pacer.until(((i + 1) / (tasks.length + 1)) * pacer.durationMs);
    let status = '';
    let output: string[] = [];
    if (args.dryRun) {
      await emit([`${task.path} SKIPPED`]);
      continue;
    }
    if (task.type === 'noSource') {
      status = 'NO-SOURCE';
    } else if (task.type === 'lifecycle') {
      status = executed === 0 ? 'UP-TO-DATE' : '';
    } else if (!task.alwaysRuns && task.variant && upToDate.has(task.variant.name)) {
      status = 'UP-TO-DATE';
      skippedUpToDate++;
    } else {
      executed++;
      if (task.action) {
        try {
          output = await runAction(task.action, projectDir, model, task.path, args.all, args.properties);
        } catch (err) {
          if (!(err instanceof TaskFailure)) {
            throw err;
          }
          if (!args.quiet) {
            await emit([
              ...(err.output.length > 0 ? [`> Task ${task.path}`, ...err.output, ''] : []),
              `> Task ${task.path} FAILED`,
            ]);
          }
          return fail(
            {
              summary: `Execution failed for task '${task.path}'.`,
              causes: err.causes,
              exception: 'org.gradle.api.tasks.TaskExecutionException',
            },
            args,
            pacer,
            actionableSummary(executed, skippedUpToDate),
          );
        }
      }
    }
    if (!args.quiet) {
      await emit([`> Task ${task.path}${status ? ` ${status}` : ''}`, ...output]);
    } else {
      await emit(
        output.filter((l) => l.startsWith('e: ')),
        process.stderr,
      );
    }
  }
  await pacer.until(pacer.durationMs);
  if (!args.quiet) {
    const summary = args.dryRun ? [] : [actionableSummary(executed, skippedUpToDate)];
    await emit([
      '',
      ...DEPRECATION_SUMMARY,
      '',
      `BUILD SUCCESSFUL in ${formatDuration(pacer.elapsed())}`,
      ...summary,
    ]);
  }
  return 0;
}

const USAGE = [
  '',
  'USAGE: gradlew [option...] [task...]',
  '',
  '-?, -h, --help                     Shows this help message.',
  '-p, --project-dir                  Specifies the start directory for Gradle. Defaults to current directory.',
  '-P, --project-prop                 Set project property for the build script (e.g. -Pmyprop=myvalue).',
  '-q, --quiet                        Log errors only.',
  '-s, --stacktrace                   Print out the stacktrace for all exceptions.',
  '-x, --exclude-task                 Specify a task to be excluded from execution.',
  '--offline                          Execute the build without accessing network resources.',
  "--console                          Specifies which type of console output to generate. Values are 'plain', 'auto' (default), 'rich' or 'verbose'.",
  '',
];

/**
 * Tasks that only report on the build. Gradle's `-m`/`--dry-run` "runs the builds with all task
 * actions disabled" (Gradle's command-line reference), and `tasks`/`help`/`properties` run no
 * compile work: only configuration, which the stand-in does not pace. A recorded build
 * (SIM_GRADLE_REPLAY) is a build's output, so these answer as the project says, not as the recording.
 */
const REPORTS = new Set(['tasks', 'help', 'properties']);

/** The stand-in's main: returns the exit code. */
export async function runStandIn(argv: readonly string[]): Promise<number> {
  const pacer = new Pacer(
    numberEnv('SIM_GRADLE_DURATION_MS', 1500),
    numberEnv('SIM_GRADLE_LINES_PER_SEC', 0),
  );
  const args = parseGradleArgs(argv);
  // A dry run and the help reports only configure the project: no task work to pace, and no
  // recorded build to replay (droidbus reads the task list and dry runs before every build).
  const reportOnly =
    args.error === undefined &&
    (args.dryRun || (args.tasks.length > 0 && args.tasks.every((t) => REPORTS.has(t.split(':').pop()!))));
  const replayFile = process.env['SIM_GRADLE_REPLAY'];
  if (replayFile && !reportOnly) {
    return replay(replayFile, pacer);
  }
  if (reportOnly) {
    pacer.durationMs = 0;
  }
  if (args.error !== undefined) {
    await emit(['', args.error, ...USAGE], process.stderr);
    return 1;
  }
  if (args.version) {
    await emit(versionReport());
    return 0;
  }
  if (args.help) {
    await emit(USAGE);
    return 0;
  }
  if (args.stop) {
    await emit(['Stopping Daemon(s)', '1 Daemon stopped']);
    return 0;
  }
  return build(args, pacer);
}

/** Exits promptly on SIGINT/SIGTERM, as Gradle's client does when its build is cancelled. */
function onSignal(signal: NodeJS.Signals): void {
  killRunningAdb();
  process.exit(SIGNAL_EXIT[signal] ?? 1);
}

function isMainModule(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) {
    return false;
  }
  try {
    return pathToFileURL(realpathSync(entry)).href === import.meta.url;
  } catch {
    return false;
  }
}

if (isMainModule()) {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.stdout.on('error', () => process.exit(1));
  runStandIn(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(
        `gradlew stand-in: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exitCode = 1;
    },
  );
}
