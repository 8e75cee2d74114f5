/**
 * `droidbus sim --sample-project DIR`: writes the sample Android project, with a `gradlew` (POSIX
 * sh) and `gradlew.bat` that run this droidbus installation's gradlew stand-in with node.
 */
import { GRADLEW_STAND_IN_LINE } from '../../project/gradlew-stand-in.js';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { batStandIn, posixStandIn } from '../stand-in-script.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleProjectFiles } from './project-files.js';

export interface SampleProjectOptions {
  /** The node executable the wrapper scripts run (default: this process's). */
  node?: string;
  /**
   * Arguments before the stand-in's own (default: the built stand-in module, resolved from this
   * module's location; from a source checkout that is the dist/ build of it). Tests that run
   * from sources pass `['--import', TSX_LOADER_URL, '/abs/…/gradlew-stand-in.ts']`.
   */
  standInArgs?: string[];
}

/** The built gradlew stand-in module of this installation (always under dist/ when running from src/). */
export function builtStandInPath(): string {
  const here = fileURLToPath(import.meta.url);
  const built = join(dirname(here), 'gradlew-stand-in.js');
  if (here.endsWith('.js')) {
    return built;
  }
  // Running from src/ (tsx, vitest): the committed wrapper must still point at the build.
  const srcIndex = here.lastIndexOf(`${join('src', 'sim', 'sample-project')}`);
  return join(here.slice(0, srcIndex), 'dist', 'sim', 'sample-project', 'gradlew-stand-in.js');
}

/** Quotes a word for POSIX sh. */
const GRADLEW_COMMENT = [
  GRADLEW_STAND_IN_LINE,
  "It execs droidbus's gradlew stand-in, which prints Gradle-like output and writes the APK.",
];

/** The POSIX `gradlew` script. */
export function gradlewScript(node: string, standInArgs: readonly string[]): string {
  return posixStandIn({
    comment: GRADLEW_COMMENT,
    env: { name: 'SIM_GRADLE_PROJECT_DIR', under: '' },
    node,
    args: standInArgs,
  });
}

/** The Windows `gradlew.bat` script. */
export function gradlewBat(node: string, standInArgs: readonly string[]): string {
  return batStandIn({
    comment: GRADLEW_COMMENT,
    env: { name: 'SIM_GRADLE_PROJECT_DIR', under: '' },
    node,
    args: standInArgs,
  });
}

/** Writes the sample Android project into `dir` (created if missing; existing files are replaced). */
export async function writeSampleProject(dir: string, options: SampleProjectOptions = {}): Promise<void> {
  const node = options.node ?? process.execPath;
  const standInArgs = options.standInArgs ?? [builtStandInPath()];
  const files: Record<string, string> = {
    ...sampleProjectFiles(),
    gradlew: gradlewScript(node, standInArgs),
    'gradlew.bat': gradlewBat(node, standInArgs),
  };
  for (const [path, text] of Object.entries(files)) {
    const target = join(dir, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  }
  await chmod(join(dir, 'gradlew'), 0o755);
}
