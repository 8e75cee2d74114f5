/**
 * The tasks the plugins real Android projects apply add to a project, each labelled with whether
 * it leaves the machine — from each plugin's own documentation, not from droidbus's policy, so the
 * policy can be held against them. The gradlew stand-in lists and "runs" these for the sample
 * project's plugins; the task policy's property test generates task sets from them.
 *
 * Sources: gradle-nexus/publish-plugin README (tasks of `nexusPublishing`); Triple-T
 * gradle-play-publisher README ("Task configuration", `publish{Variant}Bundle`, `bootstrapListing`,
 * `promoteArtifact`, internal sharing `upload{Variant}PrivateBundle`); Firebase App Distribution
 * Gradle docs (`appDistributionUpload{Variant}`, `appDistributionAddTesters`); Crashlytics Gradle
 * plugin (`uploadCrashlyticsMappingFile{Variant}`); GoogleContainerTools/jib README (`jib`,
 * `jibDockerBuild`, `jibBuildTar`); SonarScanner for Gradle (`sonar`, `sonarqube`); runningcode/fladle
 * (`runFlank`, `flankDoctor`); EmergeTools gradle plugin (`emergeUpload{Variant}Aab`); bugsnag-android-
 * gradle-plugin (`bugsnagRelease{Variant}Task`, `uploadBugsnag{Variant}Mapping`); bmuschko docker
 * plugin (`dockerBuildImage`, `dockerPushImage`); researchgate gradle-release (`createRelease`,
 * `createReleaseTag`, `release`); Gradle's maven-publish and help tasks.
 */

export interface PluginTask {
  name: string;
  /** The plugin's documentation says it sends something off the machine or cannot be undone. */
  leaves: boolean;
}

export interface GradlePlugin {
  id: string;
  /** Applied to the root project (nexus publishing, sonar) rather than to the app. */
  root?: true;
  /** Its tasks for the app's variants (`demoRelease`…) and build types. */
  tasks(variants: readonly string[], buildTypes: readonly string[]): PluginTask[];
}

const cap = (s: string): string => (s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1));
const leaving = (name: string): PluginTask => ({ name, leaves: true });
const staying = (name: string): PluginTask => ({ name, leaves: false });
const perVariant = (variants: readonly string[], f: (V: string) => PluginTask[]): PluginTask[] =>
  variants.flatMap((v) => f(cap(v)));
const releases = (variants: readonly string[]): string[] => variants.filter((v) => /release$/i.test(v));

export const PLUGINS: readonly GradlePlugin[] = [
  {
    id: 'io.github.gradle-nexus.publish-plugin',
    root: true,
    tasks: () => [
      leaving('publishToSonatype'),
      leaving('initializeSonatypeStagingRepository'),
      leaving('findSonatypeStagingRepository'),
      leaving('closeSonatypeStagingRepository'),
      leaving('releaseSonatypeStagingRepository'),
      leaving('closeAndReleaseSonatypeStagingRepository'),
      leaving('retrieveSonatypeStagingProfile'),
    ],
  },
  {
    id: 'maven-publish',
    tasks: () => [
      leaving('publish'),
      leaving('publishToMavenLocal'),
      leaving('publishReleasePublicationToMavenLocal'),
      leaving('publishReleasePublicationToSonatypeRepository'),
      leaving('publishAllPublicationsToSonatypeRepository'),
      staying('generatePomFileForReleasePublication'),
      staying('generateMetadataFileForReleasePublication'),
    ],
  },
  {
    id: 'com.github.triplet.play',
    tasks: (variants) => [
      leaving('publishBundle'),
      leaving('publishApk'),
      leaving('publishListing'),
      leaving('publishProducts'),
      leaving('promoteArtifact'),
      leaving('bootstrapListing'),
      ...perVariant(releases(variants), (V) => [
        leaving(`publish${V}Bundle`),
        leaving(`publish${V}Apk`),
        leaving(`publish${V}Listing`),
        leaving(`publish${V}Apps`),
        leaving(`promote${V}Artifact`),
        leaving(`bootstrap${V}Listing`),
        leaving(`upload${V}PrivateBundle`),
        leaving(`upload${V}PrivateApk`),
        staying(`generate${V}PlayResources`),
      ]),
    ],
  },
  {
    id: 'com.google.firebase.appdistribution',
    tasks: (variants) => [
      leaving('appDistributionAddTesters'),
      leaving('appDistributionRemoveTesters'),
      leaving('appDistributionLogin'),
      ...perVariant(variants, (V) => [leaving(`appDistributionUpload${V}`)]),
    ],
  },
  {
    id: 'com.google.firebase.crashlytics',
    tasks: (variants) =>
      perVariant(variants, (V) => [
        leaving(`uploadCrashlyticsMappingFile${V}`),
        leaving(`uploadCrashlyticsSymbolFile${V}`),
        staying(`injectCrashlyticsMappingFileId${V}`),
      ]),
  },
  {
    id: 'com.google.cloud.tools.jib',
    tasks: () => [leaving('jib'), staying('jibDockerBuild'), staying('jibBuildTar')],
  },
  { id: 'org.sonarqube', root: true, tasks: () => [leaving('sonar'), leaving('sonarqube')] },
  {
    id: 'com.osacky.fladle',
    tasks: () => [
      leaving('runFlank'),
      leaving('flankAuth'),
      staying('printYml'),
      staying('writeConfigProps'),
    ],
  },
  {
    id: 'com.emergetools.android',
    tasks: (variants) =>
      perVariant(releases(variants), (V) => [leaving(`emergeUpload${V}Aab`), leaving(`emergeUpload${V}Apk`)]),
  },
  {
    id: 'com.bugsnag.android.gradle',
    tasks: (variants) =>
      perVariant(variants, (V) => [
        leaving(`bugsnagRelease${V}Task`),
        leaving(`uploadBugsnag${V}Mapping`),
        staying(`generateBugsnag${V}Manifest`),
      ]),
  },
  {
    id: 'com.bmuschko.docker-remote-api',
    tasks: () => [staying('dockerBuildImage'), leaving('dockerPushImage'), leaving('dockerPush')],
  },
  {
    id: 'net.researchgate.release',
    root: true,
    tasks: () => [
      leaving('createRelease'),
      leaving('createReleaseTag'),
      leaving('release'),
      leaving('pushRelease'),
      staying('checkSnapshotDependencies'),
      staying('unSnapshotVersion'),
    ],
  },
];

/** The plugin of this id. */
export function pluginById(id: string): GradlePlugin | undefined {
  return PLUGINS.find((p) => p.id === id);
}
