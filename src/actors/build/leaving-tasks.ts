/**
 * Gradle tasks an agent may not run without the user's say: those whose work leaves the machine
 * (or cannot be taken back), read from the task's full name — the name Gradle resolved, never the
 * abbreviation an agent typed. One rule a line, each with the reason the agent is told.
 *
 * The names come from the plugins real Android projects apply: AGP, maven-publish, gradle-nexus
 * publish-plugin, Gradle Play Publisher, Firebase App Distribution / Crashlytics / Test Lab, Flank,
 * Jib, docker plugins, SonarQube, Emerge, Bugsnag, Sentry, git/GitHub release plugins.
 */

/** Splits a task name into lower-case words at capitals, digits runs and `-`, `_`, `.`. */
export function taskWords(name: string): string[] {
  return (name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? []).map((w) => w.toLowerCase());
}

interface LeavingRule {
  /** True when a task of these words (and full name) does this. */
  test(words: readonly string[], name: string): boolean;
  /** What it does, as the agent is told: "it …". */
  does: string;
}

const has =
  (...ws: string[]) =>
  (words: readonly string[]) =>
    ws.some((w) => words.includes(w));

/** Words right before `release` that make it a release to somewhere, not the build type (assembleRelease). */
const RELEASE_TARGETS = ['github', 'gitlab', 'gitea', 'and', 'sonatype', 'nexus'];

/**
 * `release` as the verb: first (`releaseSonatypeStagingRepository`), after a host
 * (`githubRelease`, `closeAndRelease…`), in JReleaser's tasks, or `createRelease(Tag)` of the
 * release plugins — not AGP's `create<Variant>CompatibleScreenManifests` of a `release` variant.
 */
function releaseVerb(w: readonly string[]): boolean {
  const at = w.indexOf('release');
  if (at < 0) {
    return false;
  }
  const before = w[at - 1];
  const after = w[at + 1];
  return (
    at === 0 ||
    w[0] === 'jreleaser' ||
    (before !== undefined && RELEASE_TARGETS.includes(before)) ||
    (before === 'create' && at === 1 && (after === undefined || after === 'tag'))
  );
}

export const LEAVING_RULES: readonly LeavingRule[] = [
  { test: has('publish'), does: 'publishes artifacts or the app (maven-publish, Play Publisher, Sonatype)' },
  {
    test: has('upload'),
    does: 'uploads a build, mapping or symbol file (Crashlytics, App Distribution, Emerge, Sentry, Bugsnag)',
  },
  { test: has('deploy'), does: 'deploys to a server or store' },
  { test: has('distribute'), does: 'distributes a build to testers' },
  { test: has('promote'), does: 'promotes a Play track or a staging repository' },
  { test: has('announce'), does: 'announces a release' },
  {
    test: (w) => w[0] === 'app' && w[1] === 'distribution',
    does: 'acts on the Firebase App Distribution project (upload, testers, login)',
  },
  {
    test: releaseVerb,
    does: 'releases to a repository or host (release is its verb, not the build type)',
  },
  {
    // `staging` alone is a common build type (compileStagingArtProfile): only with `repository`.
    test: (w) => has('sonatype', 'nexus')(w) || (w.includes('staging') && w.includes('repository')),
    does: 'acts on a remote Sonatype/Nexus staging repository (open, close, release, find, drop)',
  },
  { test: has('push'), does: 'pushes an image or commits (docker, Jib, git)' },
  { test: (_, name) => name === 'jib', does: 'builds and pushes a container image to a registry (Jib)' },
  {
    // Play Publisher's listing tasks end in it; AGP's `create…ApkListingFileRedirect` does not.
    test: (w) => w.at(-1) === 'listing' || w.at(-1) === 'listings',
    does: "reads or writes the Play Store listing with the publisher's credentials",
  },
  { test: has('gallery', 'agconnect', 'huawei'), does: 'acts on Huawei AppGallery Connect' },
  { test: has('flank'), does: 'runs tests on Firebase Test Lab through Flank (remote, billed)' },
  {
    test: (w) => w.includes('testlab') || w.includes('ftl') || w.join(' ').includes('test lab'),
    does: 'runs tests on Firebase Test Lab (remote, billed)',
  },
  { test: (w) => w[0] === 'sonar' || w[0] === 'sonarqube', does: 'sends the analysis to a SonarQube server' },
  {
    test: (w) => w[0] === 'bugsnag' && w[1] === 'release',
    does: "reports the release to Bugsnag's build API",
  },
  { test: has('uninstall'), does: 'uninstalls the app, and its data, from every connected device' },
];

/** Built-in tasks that print every project property (signing passwords and tokens included). */
export const PROPERTY_DUMPS: readonly string[] = ['properties'];

/** Why a task of this full name may not run, or null when it stays on the machine. */
export function leavingReason(name: string): string | null {
  const words = taskWords(name);
  return LEAVING_RULES.find((r) => r.test(words, name))?.does ?? null;
}
