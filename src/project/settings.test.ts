import { describe, expect, it } from 'vitest';
import { defaultProjectDir, parseSettings } from './settings.js';
import { parseVersionCatalog, resolvePluginAlias } from './version-catalog.js';

describe('settings file', () => {
  it('reads include in its Kotlin and Groovy forms, one or many per line, with or without a leading colon', () => {
    const kts = parseSettings(`include(":app", ":lib")\ninclude(":feature:foo")\ninclude("core")`, 'kotlin');
    expect(kts.includes).toEqual([':app', ':lib', ':feature:foo', ':core']);
    const groovy = parseSettings(
      `include ':app', ':lib'\ninclude ':wear'\nif (useX) { include ':x' }`,
      'groovy',
    );
    expect(groovy.includes).toEqual([':app', ':lib', ':wear', ':x']);
  });

  it('reads rootProject.name and projectDir relocations; a relocation it cannot evaluate is null', () => {
    const s = parseSettings(
      `rootProject.name = "demo"
include(":a", ":b", ":c")
project(":a").projectDir = file("libs/a")
project(':b').projectDir = new File(rootDir, 'libs/b')
project(":c").projectDir = file("\${someDir}/c")`,
      'kotlin',
    );
    expect(s.rootProjectName).toBe('demo');
    expect([...s.projectDirs]).toEqual([
      [':a', 'libs/a'],
      [':b', 'libs/b'],
      [':c', null],
    ]);
  });

  it('maps a project path to its default directory', () => {
    expect(defaultProjectDir(':feature:foo')).toBe('feature/foo');
    expect(defaultProjectDir(':app')).toBe('app');
  });
});

describe('version catalog', () => {
  it('resolves plugin aliases whatever separator the catalog key uses, with version.ref and id:version forms', () => {
    const catalog = parseVersionCatalog(`
[versions]
agp = "8.2.2" # comment
[plugins]
android-application = { id = "com.android.application", version.ref = "agp" }
kotlin_android = "org.jetbrains.kotlin.android:1.9.22"
hilt.gradle = { id = "com.google.dagger.hilt.android", version = "2.51" }
`);
    expect(resolvePluginAlias(catalog, 'libs.plugins.android.application')).toEqual({
      id: 'com.android.application',
      version: '8.2.2',
    });
    expect(resolvePluginAlias(catalog, 'libs.plugins.kotlin.android')).toEqual({
      id: 'org.jetbrains.kotlin.android',
      version: '1.9.22',
    });
    expect(resolvePluginAlias(catalog, 'libs.plugins.hilt.gradle')?.id).toBe(
      'com.google.dagger.hilt.android',
    );
    expect(resolvePluginAlias(catalog, 'libs.plugins.nowinandroid.android.application')).toBeNull();
  });
});
