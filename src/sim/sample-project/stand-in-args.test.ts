import { describe, expect, it } from 'vitest';
import { parseGradleArgs } from './stand-in-args.js';

describe('gradlew arguments', () => {
  it('separates tasks from the flags builds pass', () => {
    const args = parseGradleArgs([
      '--offline',
      '--console=plain',
      ':app:assembleDemoDebug',
      '-Pandroid.injected.testOnly=false',
      '--stacktrace',
      '-x',
      'lint',
      '--console',
      'plain',
      '-Dorg.gradle.jvmargs=-Xmx1g',
      'testDemoDebugUnitTest',
    ]);
    expect(args.tasks).toEqual([':app:assembleDemoDebug', 'testDemoDebugUnitTest']);
    expect(args.excluded).toEqual(['lint']);
    expect(args.stacktrace).toBe(true);
    expect(args.properties).toMatchObject({
      'android.injected.testOnly': 'false',
      'org.gradle.jvmargs': '-Xmx1g',
    });
    expect(args.error).toBeUndefined();
  });

  it('an unknown option is Gradle error text', () => {
    expect(parseGradleArgs(['--frobnicate']).error).toBe("Unknown command-line option '--frobnicate'.");
  });

  it('an option missing its value is an error', () => {
    expect(parseGradleArgs(['assemble', '-p']).error).toBe(
      "No argument was provided for command-line option '-p'.",
    );
  });
});
