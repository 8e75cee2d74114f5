import { statSync } from 'node:fs';
import { findGradleRoot } from '../project/gradle-root.js';
import { canonicalProjectRoot, trustProject, untrustProject } from '../project/trust.js';
import { readSettings } from '../store/settings.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';

const TRUST_USAGE = `Usage: droidbus trust PATH
       droidbus trust --list

Trusts an Android project to run its Gradle build: building runs the project's gradlew and build
scripts with your privileges, so only trust projects you have reviewed. PATH may be any folder of
the project; the Gradle build around it (the folder with settings.gradle(.kts)) is trusted.
Running droidbus sessions apply it at their next build. No agent can grant trust: only this
command (or the host's page) can.

  --list   print the trusted projects`;

const UNTRUST_USAGE = `Usage: droidbus untrust PATH

Revokes the trust given with \`droidbus trust\`: droidbus will not run the project's Gradle build.
Running sessions apply it at their next build.`;

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

async function trust(argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs(argv, { list: { type: 'boolean' } }, true);
  if (values.list) {
    if (positionals.length > 0) {
      throw new UsageError('--list takes no PATH');
    }
    const trusted = readSettings().trusted_projects;
    if (trusted.length === 0) {
      process.stdout.write('No project is trusted yet. Trust one with: droidbus trust PATH\n');
      return 0;
    }
    for (const p of trusted) {
      process.stdout.write(`${p}${isDirectory(p) ? '' : '  (missing)'}\n`);
    }
    return 0;
  }
  if (positionals.length !== 1) {
    throw new UsageError('give one PATH (or --list)');
  }
  const given = positionals[0] as string;
  const canonical = canonicalProjectRoot(given);
  if (!isDirectory(canonical)) {
    process.stderr.write(`droidbus trust: ${given} is not a folder\n`);
    return 1;
  }
  const gradleRoot = findGradleRoot(canonical);
  if (gradleRoot === null) {
    process.stderr.write(
      `droidbus trust: ${canonical} is not in a Gradle build (no settings.gradle or settings.gradle.kts at or above it)\n`,
    );
    return 1;
  }
  const recorded = await trustProject(gradleRoot);
  process.stdout.write(
    `Trusted ${recorded}${recorded !== canonical ? ` (the Gradle build around ${canonical})` : ''}: droidbus may now run its Gradle build.\n`,
  );
  return 0;
}

async function untrust(argv: string[]): Promise<number> {
  const { positionals } = parseCliArgs(argv, {}, true);
  if (positionals.length !== 1) {
    throw new UsageError('give one PATH');
  }
  const canonical = canonicalProjectRoot(positionals[0] as string);
  const gradleRoot = isDirectory(canonical) ? findGradleRoot(canonical) : null;
  const candidates = [...new Set([gradleRoot, canonical].filter((p): p is string => p !== null))];
  let removed: string | null = null;
  for (const p of candidates) {
    if (await untrustProject(p)) {
      removed = p;
      break;
    }
  }
  if (removed === null) {
    process.stdout.write(`${candidates[0]} was not trusted; nothing changed.\n`);
    return 0;
  }
  process.stdout.write(`Revoked trust in ${removed}: droidbus will not run its Gradle build.\n`);
  return 0;
}

export const command: CliCommand = {
  name: 'trust',
  summary: 'Trust an Android project to run its Gradle build (--list shows the trusted ones).',
  usage: TRUST_USAGE,
  run: trust,
};

export const untrustCommand: CliCommand = {
  name: 'untrust',
  summary: 'Revoke the trust in an Android project.',
  usage: UNTRUST_USAGE,
  run: untrust,
};
