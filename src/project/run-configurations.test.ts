import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifest, qualifyComponent } from './manifest.js';
import { inspectProject } from './project-model.js';
import {
  defaultRunConfigurations,
  resolveRunConfiguration,
  type RunConfiguration,
} from './run-configurations.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/projects');
const online = (serial: string, avd?: string): { serial: string; state: string; avd?: string } => ({
  serial,
  state: 'device',
  ...(avd ? { avd } : {}),
});

describe('manifest', () => {
  it('finds the MAIN/LAUNCHER activity and qualifies relative names with the namespace', () => {
    const m =
      parseManifest(`<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.p">
      <application><activity android:name=".A"/><activity-alias android:name=".Alias" android:targetActivity=".A">
      <intent-filter><action android:name="android.intent.action.MAIN"/><category android:name="android.intent.category.LAUNCHER"/></intent-filter>
      </activity-alias></application></manifest>`);
    expect(m).toEqual({ package: 'com.p', launcherActivity: '.Alias', schemes: [] });
    expect(qualifyComponent('.Main', 'com.ns')).toBe('com.ns.Main');
    expect(qualifyComponent('Main', 'com.ns')).toBe('com.ns.Main');
    expect(qualifyComponent('org.x.Main', null)).toBe('org.x.Main');
    expect(parseManifest('<not xml')).toEqual({ package: null, launcherActivity: null, schemes: [] });
  });
});

describe('run configurations', () => {
  it('makes one configuration per application module and debuggable variant, the active variant first', async () => {
    const p = await inspectProject(path.join(FIXTURES, 'same-app-kts'));
    const configs = defaultRunConfigurations(p, { activeVariants: { ':app': 'fullProdDebug' } });
    expect(configs.map((c) => c.name)).toEqual([
      'app (fullProdDebug)',
      'app (demoStagingDebug)',
      'app (demoProdDebug)',
      'app (fullStagingDebug)',
    ]);
    expect(configs[0]).toEqual({
      name: 'app (fullProdDebug)',
      module: ':app',
      variant: 'fullProdDebug',
      task: ':app:assembleFullProdDebug',
      launch: { kind: 'default-activity' },
      target: { kind: 'ask' },
      lastDevice: null,
      logcatFilter: null,
      shared: false,
    });
  });

  it('resolves to a plan with the launcher activity and the only online device', async () => {
    const p = await inspectProject(path.join(FIXTURES, 'same-app-groovy'));
    const [config] = defaultRunConfigurations(p);
    const r = resolveRunConfiguration(
      config as RunConfiguration,
      { project: p, trusted: true, devices: [online('emulator-5554'), { serial: 'x', state: 'offline' }] },
      'run',
    );
    expect(r).toEqual({
      ok: true,
      plan: {
        steps: ['build', 'install', 'launch'],
        module: ':app',
        variant: 'demoStagingDebug',
        task: ':app:assembleDemoStagingDebug',
        applicationId: 'com.example.app.staging.demo.debug',
        apkDir: 'app/build/outputs/apk/demoStaging/debug',
        activity: 'com.example.app.MainActivity',
        deepLink: null,
        device: 'emulator-5554',
      },
    });
  });

  it('an untrusted project cannot run any configuration and says how to trust it', async () => {
    const p = await inspectProject(path.join(FIXTURES, 'same-app-groovy'));
    const [config] = defaultRunConfigurations(p);
    const r = resolveRunConfiguration(
      config as RunConfiguration,
      { project: p, trusted: false, devices: [] },
      'list',
    );
    expect(r).toMatchObject({ ok: false, cannotRun: expect.stringContaining('not trusted') });
    expect(!r.ok && r.hint).toContain('droidbus trust');
  });

  it('a configuration that no longer fits the project says why: module, variant, task', async () => {
    const p = await inspectProject(path.join(FIXTURES, 'same-app-groovy'));
    const [base] = defaultRunConfigurations(p) as [RunConfiguration];
    const ctx = { project: p, trusted: true, devices: [online('d1')] };
    expect(resolveRunConfiguration({ ...base, module: ':gone' }, ctx, 'run')).toMatchObject({
      ok: false,
      cannotRun: expect.stringContaining(':gone'),
    });
    expect(resolveRunConfiguration({ ...base, module: ':lib' }, ctx, 'run')).toMatchObject({
      ok: false,
      cannotRun: expect.stringContaining('not an application'),
    });
    expect(resolveRunConfiguration({ ...base, variant: 'paidDebug' }, ctx, 'run')).toMatchObject({
      ok: false,
      cannotRun: expect.stringContaining('does not exist'),
    });
    expect(resolveRunConfiguration({ ...base, task: ':app:publishRelease' }, ctx, 'build')).toMatchObject({
      ok: false,
      cannotRun: expect.stringContaining('does not build'),
    });
  });

  it('with several devices online, running needs a device while listing only hints at it; build-only needs none', async () => {
    const p = await inspectProject(path.join(FIXTURES, 'same-app-groovy'));
    const [config] = defaultRunConfigurations(p) as [RunConfiguration];
    const ctx = { project: p, trusted: true, devices: [online('a'), online('b')] };
    expect(resolveRunConfiguration(config, ctx, 'run')).toMatchObject({
      ok: false,
      cannotRun: '2 devices are online',
      hint: expect.stringContaining('device_serial'),
    });
    expect(resolveRunConfiguration(config, ctx, 'list')).toMatchObject({
      ok: true,
      plan: { device: null },
      hint: expect.stringContaining('device_serial'),
    });
    expect(resolveRunConfiguration(config, ctx, 'build')).toMatchObject({
      ok: true,
      plan: { steps: ['build'], device: null },
    });
    expect(resolveRunConfiguration(config, { ...ctx, deviceSerial: 'b' }, 'run')).toMatchObject({
      ok: true,
      plan: { device: 'b' },
    });
  });

  it('an AVD target that is not running hints at launch_avd; a serial target must be that device', async () => {
    const p = await inspectProject(path.join(FIXTURES, 'same-app-groovy'));
    const [base] = defaultRunConfigurations(p) as [RunConfiguration];
    const avd: RunConfiguration = { ...base, target: { kind: 'avd', avd: 'Pixel_8' } };
    expect(
      resolveRunConfiguration(
        avd,
        { project: p, trusted: true, devices: [online('emulator-5554', 'Other')] },
        'run',
      ),
    ).toMatchObject({
      ok: false,
      hint: expect.stringContaining('launch_avd'),
    });
    expect(
      resolveRunConfiguration(
        avd,
        { project: p, trusted: true, devices: [online('emulator-5556', 'Pixel_8')] },
        'run',
      ),
    ).toMatchObject({
      ok: true,
      plan: { device: 'emulator-5556' },
    });
    const serial: RunConfiguration = { ...base, target: { kind: 'serial', serial: 'R58M' } };
    expect(
      resolveRunConfiguration(
        serial,
        { project: p, trusted: true, devices: [online('R58M'), online('other')], deviceSerial: 'other' },
        'run',
      ),
    ).toMatchObject({
      ok: false,
      cannotRun: expect.stringContaining('runs on R58M'),
    });
  });

  it('a module without a launcher activity cannot launch by default but can still be built', async () => {
    const p = await inspectProject(path.join(FIXTURES, 'kotlin-dsl-flavors'));
    const [config] = defaultRunConfigurations(p) as [RunConfiguration];
    const ctx = { project: p, trusted: true, devices: [online('d')] };
    expect(resolveRunConfiguration(config, ctx, 'run')).toMatchObject({
      ok: false,
      cannotRun: expect.stringContaining('no launcher activity'),
    });
    expect(resolveRunConfiguration(config, ctx, 'build').ok).toBe(true);
    expect(resolveRunConfiguration({ ...config, launch: { kind: 'none' } }, ctx, 'run')).toMatchObject({
      ok: true,
      plan: { steps: ['build', 'install'] },
    });
  });
});
