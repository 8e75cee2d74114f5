/**
 * Gradle builds through the built `droidbus mcp` over stdio, driven by the SDK client, on the
 * sample Android project (its gradlew stand-in prints real-looking Gradle output and writes the APK).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { EVERY_TOOLSET, startMcp, type McpSessionHandle } from '../helpers/mcp-client.js';
import { tempDir } from '../helpers/paths.js';
import {
  readHistory,
  setTrust,
  sha256Of,
  textOf,
  waitForRecord,
  writeSample,
} from '../helpers/build-project.js';
import { refusedWith } from '../helpers/tool-errors.js';
import { remoteLogPath } from '../../src/sim/index.js';

const home = tempDir('droidbus-build-home-');
const work = tempDir('droidbus-build-work-');
const trusted = path.join(work.dir, 'trusted');
const untrusted = path.join(work.dir, 'untrusted');
const BUILD_MS = 4000;

let session: McpSessionHandle;
let other: McpSessionHandle;

beforeAll(async () => {
  await writeSample(trusted, home.dir);
  await writeSample(untrusted, home.dir);
  await setTrust(trusted, home.dir, true);
  const env = { DROIDBUS_HOME: home.dir, SIM_GRADLE_DURATION_MS: String(BUILD_MS) };
  session = await startMcp([...EVERY_TOOLSET, '--project', trusted], { env });
  other = await startMcp([...EVERY_TOOLSET, '--project', untrusted], { env });
});
afterAll(async () => {
  await session?.close();
  await other?.close();
  home.remove();
  work.remove();
});

describe('run_gradle_task on the sample project', () => {
  it('builds a trusted project, reports progress, and records the build with the sha256 of the APK it wrote', async () => {
    const progress: Progress[] = [];
    const result = await session.client.callTool(
      { name: 'run_gradle_task', arguments: { task: 'assemble', variant: 'demoDebug' } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    const text = textOf(result);
    expect(result.isError, text).toBeFalsy();
    expect(text).toMatch(/^BUILD SUCCESSFUL — task 'assembleDemoDebug' \(variant demoDebug\)/);
    expect(text.trimEnd().endsWith('[mode: standalone: no droidbus host is running]')).toBe(true);

    // Progress every 2 s while the request wants it: seconds elapsed and the current Gradle task.
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]?.progress).toBeGreaterThanOrEqual(1);
    expect(progress[0]?.message).toMatch(/^\d+s elapsed — > Task :app:\w+/);

    const apk = path.join(trusted, 'app/build/outputs/apk/demo/debug/app-demo-debug.apk');
    const structured = result.structuredContent as { build_id: string; apks: { sha256: string }[] };
    expect(structured.apks[0]?.sha256).toBe(sha256Of(apk));

    const record = readHistory(home.dir).find((r) => r.id === structured.build_id);
    expect(record).toMatchObject({
      task: 'assembleDemoDebug',
      variant: 'demoDebug',
      result: 'success',
      origin: { kind: 'agent', client_name: 'droidbus-e2e', standalone: true },
      cancelled_by: null,
    });
    expect(record?.apks).toEqual([
      expect.objectContaining({
        path: apk,
        sha256: sha256Of(apk),
        package: 'com.droidbus.sample.demo.debug',
        variant: 'demoDebug',
      }),
    ]);

    const status = await session.client.callTool({ name: 'get_build_status', arguments: {} });
    expect(status.structuredContent).toMatchObject({
      status: 'success',
      build_id: structured.build_id,
      mode: 'standalone',
      standalone_reason: 'no droidbus host is running',
      origin: { kind: 'agent', client_name: 'droidbus-e2e' },
      cancelled_by: null,
    });
    const log = await session.client.callTool({ name: 'get_build_log', arguments: { lines: 3 } });
    expect((log.structuredContent as { lines: string[] }).lines).toHaveLength(3);
    expect(textOf(log)).toContain('BUILD SUCCESSFUL in');
    const apkPath = await session.client.callTool({
      name: 'find_apk_path',
      arguments: { variant: 'demoDebug' },
    });
    expect(apkPath.structuredContent).toMatchObject({ found: true, path: apk, via: 'output-metadata' });
  });

  it('refuses an untrusted project with a tool error coded untrusted_project before anything is spawned', async () => {
    const before = readHistory(home.dir).length;
    const message = await refusedWith(
      other.client.callTool({ name: 'run_gradle_task', arguments: { task: 'assembleDebug' } }),
      'untrusted_project',
    );
    expect(message).toContain(`droidbus trust ${JSON.stringify(untrusted)}`);
    // Nothing ran: the stand-in writes its daemon marker and build outputs on every build.
    expect(existsSync(path.join(untrusted, 'app', 'build'))).toBe(false);
    expect(existsSync(path.join(untrusted, '.gradle'))).toBe(false);
    expect(readHistory(home.dir)).toHaveLength(before);
    await refusedWith(
      other.client.callTool({ name: 'run_tests', arguments: { test_type: 'unit' } }),
      'untrusted_project',
    );
    await refusedWith(
      other.client.callTool({ name: 'build_run_configuration', arguments: { name: 'app (demoDebug)' } }),
      'untrusted_project',
    );
  });

  it('reads trust on every build, so droidbus trust and untrust apply to a running server at once', async () => {
    await setTrust(untrusted, home.dir, true);
    const result = await other.client.callTool({ name: 'run_tests', arguments: { test_type: 'unit' } });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ task: 'test', result: 'success' });
    await setTrust(untrusted, home.dir, false);
    await refusedWith(
      other.client.callTool({ name: 'run_gradle_task', arguments: { task: 'assembleDebug' } }),
    );
  });

  it.each([
    ['pRB', 'publishDemoReleaseBundle (it publishes'],
    ['publishReleaseBundle', 'publishDemoReleaseBundle (it publishes'],
    [':app:uploadArchives', 'it uploads'],
    ['uninstallAll', 'uninstallAll (it uninstalls'],
    ['aDUR', 'appDistributionUploadDemoRelease (it uploads'],
    ['releaseSonatypeStagingRepository', 'Gradle would run releaseSonatypeStagingRepository'],
    ['jreleaserDeploy', 'it deploys'],
    ['githubRelease', 'it releases to a repository or host'],
    // What a prompt-injected agent sent (droidbus issue 48): Gradle resolves each to a task of the
    // sample's publishing plugins.
    ['CloseAnd', 'Gradle would run closeAndReleaseSonatypeStagingRepository'],
    ['Initialize', 'Gradle would run initializeSonatypeStagingRepository'],
    ['InitSonStaRepo', 'Gradle would run initializeSonatypeStagingRepository'],
    ['closeSSRep', 'Gradle would run closeSonatypeStagingRepository'],
    ['Fi', 'Gradle would run findSonatypeStagingRepository'],
    ['em', 'emergeUploadDemoReleaseAab'],
    ['Cr', 'createRelease (it releases'],
    ['sonar', 'Gradle would run sonar'],
    ['jib', 'Gradle would run jib'],
    ['dockerPush', 'Gradle would run dockerPush'],
    ['properties', 'Gradle would run properties (it prints every project property'],
    ['-x', 'Gradle option'],
    ['--init-script=evil.gradle', 'Gradle option'],
  ])('refuses the task %s (%s) with a tool error and runs nothing', async (task, why) => {
    const before = readHistory(home.dir).length;
    // A blocked task is coded blocked_task; an option-shaped name is a malformed argument.
    const option = why === 'Gradle option';
    const message = await refusedWith(
      session.client.callTool({ name: 'run_gradle_task', arguments: { task } }),
      option ? 'invalid_argument' : 'blocked_task',
    );
    expect(message).toContain(option ? 'looks like a Gradle option' : why);
    expect(readHistory(home.dir)).toHaveLength(before);
    // The stand-in records every leaving task it runs: none did.
    expect(existsSync(remoteLogPath(trusted))).toBe(false);
  });

  it("refuses the same names through run_tests, and runs a safe abbreviation after Gradle's dry run", async () => {
    for (const task of ['CloseAnd', 'em', 'Cr']) {
      await refusedWith(session.client.callTool({ name: 'run_tests', arguments: { task } }), 'blocked_task');
    }
    expect(existsSync(remoteLogPath(trusted))).toBe(false);
    const result = await session.client.callTool({
      name: 'run_gradle_task',
      arguments: { task: 'assembleDemoD' },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toContain('BUILD SUCCESSFUL');
    // An ambiguous abbreviation fails as Gradle fails it, naming the candidates.
    const ambiguous = await refusedWith(
      session.client.callTool({ name: 'run_gradle_task', arguments: { task: 'installDebug' } }),
    );
    expect(ambiguous).toContain("Task 'installDebug' is ambiguous");
    expect(ambiguous).toContain("'installDemoDebug', 'installFullDebug'");
  });

  it('refuses a variant the project does not have, naming the ones it has', async () => {
    const message = await refusedWith(
      session.client.callTool({
        name: 'run_gradle_task',
        arguments: { task: 'assemble', variant: 'paidDebug' },
      }),
    );
    expect(message).toContain('no variant paidDebug');
    expect(message).toContain('demoDebug');
  });

  it('cancels the build when the client cancels the request, recorded as cancelled by that agent', async () => {
    const controller = new AbortController();
    const call = session.client.callTool(
      { name: 'run_gradle_task', arguments: { task: 'assembleFullRelease' } },
      undefined,
      { signal: controller.signal, onprogress: () => controller.abort('the user changed their mind') },
    );
    await expect(call).rejects.toThrow();
    const record = await waitForRecord(home.dir, (r) => r.task === 'assembleFullRelease');
    expect(record.result).toBe('cancelled');
    expect(record.cancelled_by).toMatchObject({ kind: 'agent', client_name: 'droidbus-e2e' });
    expect(record.cancelled_by?.session_id).toBe(record.origin.session_id);
    expect(record.reason).toContain('cancelled by an agent (droidbus-e2e)');
    // Stopped mid-way: the release APK, written by the last tasks, never appeared.
    expect(existsSync(path.join(trusted, 'app/build/outputs/apk/full/release'))).toBe(false);
    const status = await session.client.callTool({ name: 'get_build_status', arguments: {} });
    expect(status.structuredContent).toMatchObject({ status: 'cancelled', task: 'assembleFullRelease' });
  });
});

describe('the project tools and resources', () => {
  it('lists the variants, makes one active, and builds a run configuration without installing it', async () => {
    const variants = await session.client.callTool({ name: 'list_build_variants', arguments: {} });
    expect(
      (variants.structuredContent as { variants: { name: string }[] }).variants.map((v) => v.name),
    ).toEqual(['demoDebug', 'demoRelease', 'fullDebug', 'fullRelease']);
    const set = await session.client.callTool({
      name: 'set_active_variant',
      arguments: { variant: 'fullDebug' },
    });
    expect(set.structuredContent).toMatchObject({ active_variant: 'fullDebug' });
    const info = await session.client.callTool({ name: 'get_project_info', arguments: {} });
    expect(info.structuredContent).toMatchObject({
      trusted: true,
      active_variant: 'fullDebug',
      variants_count: 4,
      modules: [':app'],
      application_modules: [
        expect.objectContaining({ path: ':app', namespace: 'com.droidbus.sample', min_sdk: 24 }),
      ],
    });
    const configs = await session.client.callTool({ name: 'list_run_configurations', arguments: {} });
    const listed = configs.structuredContent as { active: string; configurations: { name: string }[] };
    expect(listed.active).toBe('app (fullDebug)');
    const built = await session.client.callTool({
      name: 'build_run_configuration',
      arguments: { name: 'app (fullDebug)' },
    });
    expect(built.isError, textOf(built)).toBeFalsy();
    expect(built.structuredContent).toMatchObject({
      task: ':app:assembleFullDebug',
      apk_path: path.join(trusted, 'app/build/outputs/apk/full/debug/app-full-debug.apk'),
      apk_written_by_this_build: true,
    });
    const config = await session.client.callTool({ name: 'get_build_config', arguments: { module: 'app' } });
    expect(config.structuredContent).toMatchObject({
      module: ':app',
      dsl: 'kotlin',
      flavor_dimensions: ['tier'],
    });
    await refusedWith(session.client.callTool({ name: 'get_build_config', arguments: { module: '../app' } }));
  });

  it('serves the project files as android:// resources', async () => {
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining([
        'android://project-info',
        'android://health',
        'android://manifest',
        'android://app-build-gradle',
        'android://build-gradle',
        'android://gradle-settings',
      ]),
    );
    const manifest = await session.client.readResource({ uri: 'android://manifest' });
    expect((manifest.contents[0] as { text: string }).text).toContain('<manifest');
    const info = await session.client.readResource({ uri: 'android://project-info' });
    expect(JSON.parse((info.contents[0] as { text: string }).text)).toMatchObject({ trusted: true });
  });
});
