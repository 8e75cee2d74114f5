import { runHealthCheck } from '../actors/system/health.js';
import type { HealthReport } from '../bus/messages/system.js';
import { ProjectArgumentError, selectProject } from '../mcp/project-select.js';
import { isProjectTrusted } from '../project/trust.js';
import { VERSION } from '../version.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';

const USAGE = `Usage: droidbus doctor [--project PATH] [--json]

Checks what droidbus needs on this machine — the JDK Gradle uses, the Android SDK, adb, and the
project's Gradle wrapper — and says how to fix each missing piece. Exits 0 when all is well, 1 otherwise.

  --project PATH   the Android project (default: the Gradle build around the working directory)
  --json           print the report as JSON (the same object run_health_check returns)`;

function painter(enabled: boolean) {
  const wrap = (code: string) => (s: string) => (enabled ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { green: wrap('32'), red: wrap('31'), yellow: wrap('33'), dim: wrap('2'), bold: wrap('1') };
}

async function run(argv: string[]): Promise<number> {
  const { values } = parseCliArgs(argv, { project: { type: 'string' }, json: { type: 'boolean' } });
  let root: string | null;
  try {
    root = selectProject(values.project, process.cwd()).root;
  } catch (err) {
    if (err instanceof ProjectArgumentError) {
      throw new UsageError(err.message);
    }
    throw err;
  }
  const trusted = root ? isProjectTrusted(root) : false;
  const report = await runHealthCheck(root, trusted);
  if (values.json) {
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    return report.all_ok ? 0 : 1;
  }
  process.stdout.write(
    formatDoctor(report, root, trusted, process.stdout.isTTY === true && !process.env['NO_COLOR']),
  );
  return report.all_ok ? 0 : 1;
}

/** The doctor's report for a person: one row per check, and a last line that says what it adds up to. */
export function formatDoctor(
  report: HealthReport,
  root: string | null,
  trusted: boolean,
  color: boolean,
): string {
  const c = painter(color);
  const ok = c.green('✔');
  const bad = c.red('✘');
  const { checks } = report;
  const out: string[] = [c.bold(`droidbus ${VERSION} doctor`), ''];
  const row = (
    pass: boolean,
    name: string,
    detail: string,
    hint: string | null,
    extra: string[] = [],
  ): void => {
    out.push(`${pass ? ok : bad} ${c.bold(name.padEnd(15))} ${detail}`);
    for (const line of extra) {
      out.push(`  ${' '.repeat(15)} ${line}`);
    }
    if (!pass && hint) {
      out.push(`  ${' '.repeat(15)} ${c.yellow('→ ' + hint)}`);
    }
  };
  row(
    checks.java.ok,
    'Java (JDK)',
    checks.java.version
      ? `${checks.java.version} ${c.dim(`(${checks.java.bin}, from ${checks.java.source})`)}`
      : 'not found',
    checks.java.hint,
    checks.java.warning ? [c.yellow(checks.java.warning)] : [],
  );
  row(
    checks.android_sdk.ok,
    'Android SDK',
    checks.android_sdk.path
      ? `${checks.android_sdk.path} ${c.dim(`(${checks.android_sdk.source})`)}`
      : 'not found',
    checks.android_sdk.hint,
    checks.android_sdk.ok ? [] : checks.android_sdk.tried.map((t) => c.dim(t)),
  );
  row(
    checks.adb.ok,
    'adb',
    checks.adb.version ? `${checks.adb.version} ${c.dim(`(${checks.adb.path})`)}` : 'not found',
    checks.adb.hint,
  );
  if (root) {
    row(
      checks.gradle_wrapper.ok,
      'Gradle wrapper',
      checks.gradle_wrapper.path
        ? `${checks.gradle_wrapper.path}${checks.gradle_wrapper.stand_in ? c.yellow(' (the stand-in droidbus sim wrote: no real Gradle runs)') : checks.gradle_wrapper.gradle_version ? c.dim(` (Gradle ${checks.gradle_wrapper.gradle_version})`) : ''}`
        : 'not found',
      checks.gradle_wrapper.hint,
    );
    out.push(
      `${trusted ? ok : c.yellow('!')} ${c.bold('Project'.padEnd(15))} ${root} ${trusted ? c.dim('(trusted)') : c.yellow('(not trusted: droidbus will not run its Gradle build until you run `droidbus trust ' + JSON.stringify(root) + '`)')}`,
    );
  } else {
    out.push(
      `${c.dim('-')} ${c.bold('Project'.padEnd(15))} ${c.dim('none selected (run from inside a Gradle project, or pass --project PATH)')}`,
    );
  }
  out.push(`${ok} ${c.bold('Retrace'.padEnd(15))} ${checks.retrace.engine}`);
  const routes = checks.network_routes;
  if (routes.devices.length > 0) {
    row(
      routes.ok,
      'Network routes',
      routes.devices.map((d) => `${d.serial} → ${d.proxy} (${d.state})`).join(', '),
      routes.hint,
    );
  }
  const display = checks.display_changes;
  if (display !== undefined && display.devices.length > 0) {
    row(
      display.ok,
      'Display changes',
      display.devices.map((d) => `${d.serial}: ${d.settings.join(', ')} (${d.state})`).join(', '),
      display.hint,
    );
  }
  out.push(
    '',
    !report.all_ok
      ? c.red('Some checks failed; follow the hints above.')
      : root && !trusted
        ? c.yellow(
            `All checks passed, but the project is not trusted: droidbus builds it after \`droidbus trust ${JSON.stringify(root)}\`.`,
          )
        : c.green('All checks passed.'),
  );
  return out.join('\n') + '\n';
}

export const command: CliCommand = {
  name: 'doctor',
  summary: 'Check Java, the Android SDK, adb and the Gradle wrapper, for a person.',
  usage: USAGE,
  run,
};
