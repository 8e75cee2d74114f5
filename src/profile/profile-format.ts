/**
 * A device profile: what a real (or simulated) device answered to droidbus's read commands, kept
 * byte for byte, so `droidbus sim --profile` can make a simulated device answer the same way.
 *
 * On disk a profile is a folder:
 *   manifest.json        what was recorded, when, by which droidbus, each command line and its
 *                        exit code, and what was redacted (schema below)
 *   out/NNN-NAME.out     each command's stdout, raw bytes (UTF-16, CRLF and BOMs as printed)
 *   out/NNN-NAME.err     its stderr, when there was any
 * Zip the folder to attach it to a bug report.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { writeFileAtomic } from '../store/atomic.js';
import { readRegularFile, RegularFileError } from '../util/regular-file.js';

export const PROFILE_FORMAT = 'droidbus-device-profile';

/**
 * The argv a profile keeps the UI helper's page source under (profile-helper-source.ts): not a
 * command a device runs, the UiAutomator2 server's answer to GET /session/:id/source.
 */
export const HELPER_SOURCE_ARGV: readonly string[] = ['uiautomator2-server', 'GET', '/session/:id/source'];

const commandSchema = z.object({
  /** The catalogue read it answers (src/device/reads.ts), or null for another command. */
  read: z.string().nullable(),
  argv: z.array(z.string()).min(1),
  stdout: z.string(),
  stderr: z.string().nullable(),
  /** null: the device has no shell v2, so adb could not report one. */
  exit_code: z.number().int().nullable(),
  stdout_bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The stderr file's sha256 (profiles recorded before it was kept have none). */
  stderr_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** Where the bytes come from when they were not recorded by `droidbus device record` (bundled profiles). */
  source: z.string().optional(),
});

const redactionSchema = z.object({
  command: z.string(),
  what: z.string(),
  count: z.number().int().positive(),
  why: z.string(),
});

export const manifestSchema = z.object({
  format: z.literal(PROFILE_FORMAT),
  version: z.literal(1),
  recorded_at: z.string(),
  droidbus_version: z.string(),
  /** What the profile is of, in a person's words (the model and build, or a bundled profile's origin). */
  description: z.string(),
  packages: z.array(z.string()),
  /**
   * The device's adb features as `adb features` printed them (shell_v2, cmd, …); profiles recorded
   * before droidbus kept them, and the bundled ones, have none (the simulator infers them from the SDK).
   */
  features: z
    .array(z.string().regex(/^[a-z0-9_]{1,40}$/))
    .max(64)
    .optional(),
  commands: z.array(commandSchema).max(10_000),
  redactions: z.array(redactionSchema),
});

export type ProfileManifest = z.infer<typeof manifestSchema>;
export type ProfileCommand = z.infer<typeof commandSchema>;
export type ProfileRedaction = z.infer<typeof redactionSchema>;

/** One recorded answer, loaded. */
export interface RecordedAnswer {
  command: ProfileCommand;
  stdout: Buffer;
  stderr: Buffer;
}

export interface DeviceProfile {
  /** The folder's name. */
  name: string;
  dir: string;
  manifest: ProfileManifest;
  /** By argv joined with NUL. */
  answers: Map<string, RecordedAnswer>;
}

/** Where the bundled profiles live (profiles/ in the package, beside src/ and dist/). */
export const BUNDLED_PROFILES_DIR = fileURLToPath(new URL('../../profiles/', import.meta.url));

/** The names of the bundled profiles. */
export function bundledProfiles(): string[] {
  try {
    return readdirSync(BUNDLED_PROFILES_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(path.join(BUNDLED_PROFILES_DIR, d.name, 'manifest.json')))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

/** The folder of a bundled profile. */
export function bundledProfileDir(name: string): string {
  return path.join(BUNDLED_PROFILES_DIR, name);
}

/** The key a command is found under: its argv, NUL-joined. */
export function argvKey(argv: readonly string[]): string {
  return argv.join('\0');
}

/** Most bytes of one file of a profile: a recorded answer is a dump, never gigabytes. */
export const MAX_PROFILE_FILE_BYTES = 64 * 1024 * 1024;
/**
 * What all of a profile's files may hold together: a profile is loaded whole into the simulator's
 * memory, and forty files just under the per-file cap grew it to 3 GB (issue 68). A real phone's
 * recorded reads are well under 1 MB (the bundled ones 24–84 KB).
 */
export const MAX_PROFILE_TOTAL_BYTES = 128 * 1024 * 1024;

/**
 * One file of a profile, read only when it is a regular file inside the folder (after resolving
 * symlinks, and not itself a symlink: a profile is data someone may hand over, and its manifest names
 * the files), at most MAX_PROFILE_FILE_BYTES and what is `left` of the profile's total, read by
 * readRegularFile (a FIFO, a device or a second hard link fails at once instead of hanging, growing
 * memory or reading a file from elsewhere).
 */
function readProfileFile(root: string, file: string, manifestPath: string, total: { left: number }): Buffer {
  const full = path.resolve(root, file);
  if (!full.startsWith(root + path.sep)) {
    throw new Error(`${manifestPath}: ${file} is outside the profile`);
  }
  let real: string;
  try {
    real = realpathSync(full);
  } catch (err) {
    throw new Error(
      `${manifestPath}: ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
  if (real !== full) {
    throw new Error(
      `${manifestPath}: ${file} is a symbolic link or lies under one; a profile's files are plain files inside its folder`,
    );
  }
  const cap = Math.min(MAX_PROFILE_FILE_BYTES, total.left);
  let bytes: Buffer;
  try {
    bytes = readRegularFile(full, cap);
  } catch (err) {
    if (!(err instanceof RegularFileError)) {
      throw err;
    }
    const size = Number(err.detail).toLocaleString('en-US');
    throw new Error(
      err.reason === 'too_large'
        ? cap < MAX_PROFILE_FILE_BYTES
          ? `${manifestPath}: ${file} (${size} bytes) would take the profile's files past the ${MAX_PROFILE_TOTAL_BYTES.toLocaleString('en-US')} bytes a profile may hold in all`
          : `${manifestPath}: ${file} is ${size} bytes, over the ${MAX_PROFILE_FILE_BYTES.toLocaleString('en-US')} a profile's file may hold`
        : err.reason === 'not_regular'
          ? `${manifestPath}: ${file} is not a regular file (${String(err.detail)})`
          : err.reason === 'hard_link'
            ? `${manifestPath}: ${file} has ${String(err.detail)} hard links; a profile's files are plain files of its own, not links to files elsewhere`
            : `${manifestPath}: ${file} cannot be read (${err.message})`,
    );
  }
  total.left -= bytes.length;
  return bytes;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Reads a profile folder; throws an Error saying what is wrong with it. */
export function loadProfile(dir: string): DeviceProfile {
  const manifestPath = path.join(dir, 'manifest.json');
  const total = { left: MAX_PROFILE_TOTAL_BYTES };
  let root: string;
  try {
    root = realpathSync(dir);
  } catch (err) {
    throw new Error(`${dir}: ${err instanceof Error ? err.message : String(err)}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readProfileFile(root, 'manifest.json', manifestPath, total).toString('utf8'));
  } catch (err) {
    throw new Error(
      err instanceof Error && err.message.startsWith(manifestPath)
        ? err.message
        : `${manifestPath}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `${manifestPath}: not a droidbus device profile (${issue?.path.join('.')}: ${issue?.message})`,
    );
  }
  const manifest = parsed.data;
  const answers = new Map<string, RecordedAnswer>();
  for (const command of manifest.commands) {
    const stdout = readProfileFile(root, command.stdout, manifestPath, total);
    if (sha256(stdout) !== command.sha256) {
      throw new Error(
        `${command.stdout}: its bytes do not match the manifest's sha256 (edited after recording?)`,
      );
    }
    const stderr =
      command.stderr === null ? Buffer.alloc(0) : readProfileFile(root, command.stderr, manifestPath, total);
    if (
      command.stderr !== null &&
      command.stderr_sha256 !== undefined &&
      sha256(stderr) !== command.stderr_sha256
    ) {
      throw new Error(
        `${command.stderr}: its bytes do not match the manifest's stderr_sha256 (edited after recording?)`,
      );
    }
    answers.set(argvKey(command.argv), { command, stdout, stderr });
  }
  return { name: path.basename(path.resolve(dir)), dir, manifest, answers };
}

/** One answer to write into a new profile. */
export interface AnswerToWrite {
  read: string | null;
  argv: readonly string[];
  stdout: Uint8Array;
  stderr: Uint8Array;
  exitCode: number | null;
  source?: string;
}

/** A file name for a command's output: its position and a slug of its argv. */
function fileStem(i: number, argv: readonly string[]): string {
  const slug = argv
    .join('-')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._-]+/, '')
    .slice(0, 60);
  return `${String(i + 1).padStart(3, '0')}-${slug}`;
}

/**
 * Writes a profile folder atomically: everything goes into a temporary folder beside `dir`, which
 * is renamed into place at the end, so `dir` never holds half a profile. Refuses an existing `dir`.
 */
export function writeProfile(
  dir: string,
  meta: Omit<ProfileManifest, 'format' | 'version' | 'commands'>,
  answers: readonly AnswerToWrite[],
): ProfileManifest {
  const target = path.resolve(dir);
  if (existsSync(target)) {
    throw new Error(`${dir} exists; give a new folder (or remove it first)`);
  }
  const tmp = `${target}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(path.join(tmp, 'out'), { recursive: true, mode: 0o755 });
  try {
    const commands: ProfileCommand[] = answers.map((a, i) => {
      const stem = fileStem(i, a.argv);
      writeFileAtomic(path.join(tmp, 'out', `${stem}.out`), a.stdout, 0o644);
      if (a.stderr.length > 0) {
        writeFileAtomic(path.join(tmp, 'out', `${stem}.err`), a.stderr, 0o644);
      }
      return {
        read: a.read,
        argv: [...a.argv],
        stdout: `out/${stem}.out`,
        stderr: a.stderr.length > 0 ? `out/${stem}.err` : null,
        exit_code: a.exitCode,
        stdout_bytes: a.stdout.length,
        sha256: sha256(a.stdout),
        ...(a.stderr.length > 0 ? { stderr_sha256: sha256(a.stderr) } : {}),
        ...(a.source !== undefined ? { source: a.source } : {}),
      };
    });
    const manifest: ProfileManifest = { format: PROFILE_FORMAT, version: 1, ...meta, commands };
    writeFileAtomic(path.join(tmp, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n', 0o644);
    renameSync(tmp, target);
    return manifest;
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}
