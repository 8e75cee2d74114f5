/**
 * The sample Android project: its writer (the gradlew stand-in runs as its own process).
 *
 * Evidence: none — the sample project's entry; its modules cite their own.
 */
export { builtStandInPath, writeSampleProject, type SampleProjectOptions } from './write-sample-project.js';
export { SAMPLE_AGP_VERSION, SAMPLE_GRADLE_VERSION, SAMPLE_KOTLIN_VERSION } from './project-files.js';
