/**
 * The project tools and android:// resources through the built `droidbus mcp`: Kotlin DSL and
 * Groovy projects read alike, and project files are served only from inside the project.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { EVERY_TOOLSET, startMcp } from '../helpers/mcp-client.js';
import { ROOT, tempDir } from '../helpers/paths.js';

const home = tempDir('droidbus-project-tools-home-');
const work = tempDir('droidbus-project-tools-');
afterAll(() => {
  home.remove();
  work.remove();
});

async function describeProject(
  dir: string,
): Promise<{ variants: unknown; packages: unknown; config: unknown }> {
  const session = await startMcp([...EVERY_TOOLSET, '--project', dir], { env: { DROIDBUS_HOME: home.dir } });
  try {
    const variants = await session.client.callTool({ name: 'list_build_variants', arguments: {} });
    const info = await session.client.callTool({ name: 'get_project_info', arguments: {} });
    const config = await session.client.callTool({ name: 'get_build_config', arguments: {} });
    // The build file's name and DSL differ by design; so do the plugin ids (the Groovy file applies
    // the legacy 'kotlin-android' id).
    const {
      build_file: _file,
      dsl: _dsl,
      plugins: _plugins,
      ...rest
    } = config.structuredContent as Record<string, unknown>;
    return {
      variants: variants.structuredContent,
      packages: (info.structuredContent as { packages: string[] }).packages,
      config: rest,
    };
  } finally {
    await session.close();
  }
}

describe('Kotlin DSL and Groovy', () => {
  it('give the same variants, package scope and build configuration through the tools', async () => {
    const fixtures = path.join(ROOT, 'tests', 'fixtures', 'projects');
    const kts = await describeProject(path.join(fixtures, 'same-app-kts'));
    const groovy = await describeProject(path.join(fixtures, 'same-app-groovy'));
    expect((kts.variants as { count: number }).count).toBe(12);
    expect(kts.packages).toEqual(expect.arrayContaining(['com.example.app', 'com.example.app.staging']));
    expect(groovy).toEqual(kts);
  });
});

describe('android:// project file resources', () => {
  it('refuses a file a symlink takes outside the project, and cuts a large file with a note', async () => {
    const project = path.join(work.dir, 'linked');
    const outside = path.join(work.dir, 'secret.txt');
    writeFileSync(outside, 'a file outside the project\n');
    mkdirSync(path.join(project, 'app', 'src', 'main'), { recursive: true });
    // A settings file past the 512 KiB cap, with bytes that are not UTF-8.
    const big = Buffer.concat([
      Buffer.from('rootProject.name = "linked"\ninclude(":app")\n// \xff\xfe not UTF-8\n', 'latin1'),
      Buffer.alloc(600 * 1024, '/'),
    ]);
    writeFileSync(path.join(project, 'settings.gradle.kts'), big);
    writeFileSync(
      path.join(project, 'app', 'build.gradle.kts'),
      'plugins { id("com.android.application") }\nandroid { namespace = "com.example.linked" }\n',
    );
    symlinkSync(outside, path.join(project, 'build.gradle.kts'));
    symlinkSync(outside, path.join(project, 'app', 'src', 'main', 'AndroidManifest.xml'));

    const session = await startMcp([...EVERY_TOOLSET, '--project', project], {
      env: { DROIDBUS_HOME: home.dir },
    });
    try {
      const uris = (await session.client.listResources()).resources.map((r) => r.uri);
      expect(uris).toContain('android://gradle-settings');
      expect(uris).toContain('android://app-build-gradle');
      expect(uris).not.toContain('android://build-gradle');
      expect(uris).not.toContain('android://manifest');

      for (const uri of ['android://build-gradle', 'android://manifest']) {
        const err = await session.client.readResource({ uri }).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err, uri).toBeInstanceOf(McpError);
        expect((err as McpError).code).toBe(-32600);
        expect((err as McpError).message).toContain('outside the project');
      }

      const settings = await session.client.readResource({ uri: 'android://gradle-settings' });
      const text = (settings.contents[0] as { text: string }).text;
      expect(text).toContain('\uFFFD');
      expect(text).not.toContain('a file outside');
      expect(text).toMatch(/\[truncated: the file is \d+ bytes; only the first 524288 bytes are shown\]$/);
    } finally {
      await session.close();
    }
  });
});
