import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePackageList, parsePackagePaths, parsePackageSections } from './app-list.js';

describe('installed apps', () => {
  it('reads every package section of a real package dump (two Samsung system packages)', () => {
    const text = readFileSync(
      new URL('../../../tests/fixtures/logcat/dumpsys-package-samsung.txt', import.meta.url),
      'utf8',
    );
    const apps = parsePackageSections(text);
    expect([...apps.keys()]).toHaveLength(2);
    expect(apps.get('com.samsung.android.provider.filterprovider')).toEqual({
      package: 'com.samsung.android.provider.filterprovider',
      version_name: '5.0.07',
      version_code: 500700000,
      enabled: true,
      system: true,
      first_install_time: '2008-12-31 16:00:00',
      last_update_time: '2008-12-31 16:00:00',
    });
  });

  it('reads per-user install times and a disabled state (the Android 13+ layout)', () => {
    const text = [
      'Packages:',
      '  Package [com.example.app] (1a2b3c):',
      '    versionCode=42 minSdk=24 targetSdk=34',
      '    versionName=1.4.2',
      '    flags=[ DEBUGGABLE HAS_CODE ALLOW_CLEAR_USER_DATA ]',
      '    lastUpdateTime=2024-05-02 10:11:12',
      '    User 0: ceDataInode=1 installed=true hidden=false suspended=false stopped=false notLaunched=false enabled=3 instant=false virtual=false',
      '      firstInstallTime=2024-05-01 09:00:00',
    ].join('\n');
    expect(parsePackageSections(text).get('com.example.app')).toEqual({
      package: 'com.example.app',
      version_name: '1.4.2',
      version_code: 42,
      enabled: false,
      system: false,
      first_install_time: '2024-05-01 09:00:00',
      last_update_time: '2024-05-02 10:11:12',
    });
  });

  it('reads pm list packages, with or without -f paths', () => {
    expect(
      parsePackageList('package:com.a.b\npackage:/data/app/x/base.apk=com.c.d\nnot a package\n'),
    ).toEqual(['com.a.b', 'com.c.d']);
  });
});

describe('pm list packages -f', () => {
  it('maps each package to its base APK, whose path itself holds `=`', () => {
    // The /data/app path as `pm path` printed it on an Android 11+ emulator (a public write-up of
    // extracting com.mysports.branded.trainmore); `-f` appends `=PACKAGE` to it (PackageManagerShellCommand
    // runListPackages: "package:" + sourceDir + "=" + packageName). System apps keep the old layout.
    const out = [
      'package:/data/app/~~u3zcUID1XGr2ZfGNqbGeRA==/com.mysports.branded.trainmore-XcIwZriiEGt-2yOWBdTZjg==/base.apk=com.mysports.branded.trainmore',
      'package:/system/priv-app/Settings/Settings.apk=com.android.settings',
      'package:com.example.nopath',
      '',
    ].join('\r\n');
    expect([...parsePackagePaths(out)]).toEqual([
      [
        'com.mysports.branded.trainmore',
        '/data/app/~~u3zcUID1XGr2ZfGNqbGeRA==/com.mysports.branded.trainmore-XcIwZriiEGt-2yOWBdTZjg==/base.apk',
      ],
      ['com.android.settings', '/system/priv-app/Settings/Settings.apk'],
    ]);
  });
});
