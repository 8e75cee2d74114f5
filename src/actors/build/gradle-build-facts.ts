/**
 * Facts a Gradle console shows besides diagnostics: the result and duration lines, the Gradle and
 * Android Gradle Plugin versions where some line gives them away, and the APKs, mapping files and
 * reports it mentions.
 */
import { fileUriToPath } from './gradle-line-patterns.js';

export type BuildResult = 'success' | 'failed' | 'cancelled';

/** Parses Gradle's duration forms: `1m 25s`, `12s`, `651ms`, `1h 2m 3s`, old `1 mins 36.227 secs`. */
export function parseGradleDuration(text: string): number | null {
  let ms = 0;
  let any = false;
  const re = /(\d+(?:\.\d+)?)\s*(ms|h|hrs?|m|mins?|s|secs?)\b/g;
  for (const m of text.matchAll(re)) {
    const n = Number(m[1]);
    const unit = m[2] as string;
    any = true;
    if (unit === 'ms') {
      ms += n;
    } else if (unit.startsWith('h')) {
      ms += n * 3_600_000;
    } else if (unit.startsWith('m')) {
      ms += n * 60_000;
    } else {
      ms += n * 1000;
    }
  }
  return any ? Math.round(ms) : null;
}

/** `BUILD SUCCESSFUL in 12s`, `BUILD FAILED`, `BUILD CANCELLED`, `Build cancelled.` */
export function matchResultLine(line: string): { result: BuildResult; durationMs: number | null } | null {
  const m = /^BUILD (SUCCESSFUL|FAILED|CANCELLED)(?: in (.+))?$/.exec(line);
  if (m) {
    const result = m[1] === 'SUCCESSFUL' ? 'success' : m[1] === 'FAILED' ? 'failed' : 'cancelled';
    return { result, durationMs: m[2] !== undefined ? parseGradleDuration(m[2]) : null };
  }
  if (/^Build cancell?ed\.?$/.test(line)) {
    return { result: 'cancelled', durationMs: null };
  }
  return null;
}

/** Old Gradle's `Total time: 4.145 secs`. */
export function matchTotalTime(line: string): number | null {
  const m = /^Total time: (.+)$/.exec(line);
  return m ? parseGradleDuration(m[1] as string) : null;
}

const GRADLE_DEFINITE = [
  /Welcome to Gradle (\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?)!/,
  /^Gradle (\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?)$/,
];
const GRADLE_HINTS = [
  /docs\.gradle\.org\/(\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?)\//,
  /gradle-(\d+\.\d+(?:\.\d+)?(?:-(?:rc|milestone)-\d+)?)-(?:bin|all)(?:\.zip|[\\/])/,
];
const AGP_PATTERNS = [
  /This Android Gradle plugin \((\d+\.\d+\.\d+[\w.-]*)\)/,
  /Android Gradle plugin (\d+\.\d+\.\d+[\w.-]*) requires/,
  /\(AGP (\d+\.\d+\.\d+[\w.-]*)\)/,
  /com\.android\.tools\.build:gradle:(\d+\.\d+\.\d+[\w.-]*)/,
  /aapt2-(\d+\.\d+\.\d+(?:-(?:alpha|beta|rc)\d+)?)-\d+-(?:linux|osx|windows)/,
];

export interface VersionFacts {
  gradleVersion: string | null;
  /** True when the Gradle version came from a line that states it, not a docs link or a download. */
  gradleVersionCertain: boolean;
  agpVersion: string | null;
}

/** Updates the versions known from one line. */
export function noteVersions(line: string, facts: VersionFacts): void {
  if (!facts.gradleVersionCertain && line.includes('radle')) {
    for (const re of GRADLE_DEFINITE) {
      const m = re.exec(line);
      if (m) {
        facts.gradleVersion = m[1] as string;
        facts.gradleVersionCertain = true;
        break;
      }
    }
    if (facts.gradleVersion === null) {
      for (const re of GRADLE_HINTS) {
        const m = re.exec(line);
        if (m) {
          facts.gradleVersion = m[1] as string;
          break;
        }
      }
    }
  }
  if (
    facts.agpVersion === null &&
    (line.includes('ndroid') || line.includes('AGP') || line.includes('aapt2-'))
  ) {
    for (const re of AGP_PATTERNS) {
      const m = re.exec(line);
      if (m) {
        facts.agpVersion = m[1] as string;
        break;
      }
    }
  }
}

const APK_TOKEN = /(?:file:\/\/)?((?:[A-Za-z]:)?[^\s'"()<>]*[\\/][^\s'"()<>]*?\.apk)(?![\w.])/g;
const MAPPING_TOKEN =
  /(?:file:\/\/)?((?:[A-Za-z]:)?[^\s'"()<>]*[\\/]mapping(?:[\\/][^\s'"()<>]*)?[\\/]mapping\.txt)(?![\w.])/g;
const REPORT_TOKENS = [
  /See the complete report at (file:\S+)/,
  /See the report at: (file:\S+)/,
  /Wrote (?:HTML|XML|SARIF|text) report to (file:\S+|\S+)/,
  /generated in (\S+missing_rules\.txt)/,
  /^\s*((?:[A-Za-z]:)?\S*[\\/](?:lint-results|lint-report)[\w.-]*\.(?:html|xml|txt|sarif))\s*$/,
];

export interface ArtifactFacts {
  apks: string[];
  mappingFiles: string[];
  reports: string[];
}

function addOnce(list: string[], value: string, max = 200): void {
  if (!list.includes(value) && list.length < max) {
    list.push(value);
  }
}

/** Records APK paths, mapping files and report paths a line mentions. */
export function noteArtifacts(line: string, facts: ArtifactFacts): void {
  if (line.includes('.apk')) {
    for (const m of line.matchAll(APK_TOKEN)) {
      addOnce(facts.apks, fileUriToPath(m[1] as string));
    }
  }
  if (line.includes('mapping.txt')) {
    for (const m of line.matchAll(MAPPING_TOKEN)) {
      addOnce(facts.mappingFiles, fileUriToPath(m[1] as string));
    }
  }
  if (line.includes('report') || line.includes('missing_rules') || line.includes('lint-results')) {
    for (const re of REPORT_TOKENS) {
      const m = re.exec(line);
      if (m) {
        addOnce(facts.reports, fileUriToPath((m[1] as string).replace(/\.$/, '')));
      }
    }
  }
}
