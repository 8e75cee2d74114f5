import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseElapsed, parseLocation, parseLocationDump, parseUptime } from './location-dump.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../../tests/fixtures/location/${name}`, import.meta.url), 'utf8');

describe('dumpsys location', () => {
  it('reads the last fixes per provider of an Android 11 device, fine and coarse, and ages them', () => {
    // The device had been up 3m41s468ms (its header says so).
    const state = parseLocationDump(fixture('android11-sunmi-network-fix.txt'), 221_468);
    expect(state.location_enabled).toBe(true);
    expect(state.fixes).toEqual([
      {
        provider: 'passive',
        latitude: 31.309459,
        longitude: 121.508284,
        altitude: null,
        accuracy_m: 40,
        elapsed_realtime_ms: 83_722,
        age_ms: 137_746,
        coarse: false,
      },
      {
        provider: 'passive',
        latitude: 31.315315,
        longitude: 121.502259,
        altitude: null,
        accuracy_m: 2000,
        elapsed_realtime_ms: 71_106,
        age_ms: 150_362,
        coarse: true,
      },
      expect.objectContaining({ provider: 'network', latitude: 31.309459, coarse: false }),
      expect.objectContaining({ provider: 'network', latitude: 31.315315, coarse: true }),
    ]);
  });

  it('reads the newer line shape with altitude, and a gps line quoted from Huawei Cloud documentation', () => {
    const modern = [
      'Location Manager State:',
      '  Location Setting: true',
      '  Location Providers:',
      '    gps provider:',
      '      last location=Location[gps 37.421998,-122.084000 hAcc=5.0 et=+1h2m3s alt=5.0 vAcc=0.5]',
      '    fused provider:',
      '      last location=null',
    ].join('\n');
    expect(parseLocationDump(modern, 3_723_000 + 5_000)).toEqual({
      location_enabled: true,
      fixes: [
        {
          provider: 'gps',
          latitude: 37.421998,
          longitude: -122.084,
          altitude: 5,
          accuracy_m: 5,
          elapsed_realtime_ms: 3_723_000,
          age_ms: 5_000,
          coarse: false,
        },
      ],
    });
    const huawei = parseLocation(
      'gps 30.188433,120.199818 hAcc=20 et=+2h17m10s384ms alt=0.0 vel=0.0 bear=0.0 vAcc=??? sAcc=??? bAcc=??? {Bundle[{}]}',
      'gps',
      false,
      null,
    );
    expect(huawei).toMatchObject({
      latitude: 30.188433,
      longitude: 120.199818,
      altitude: 0,
      accuracy_m: 20,
      age_ms: null,
    });
  });

  it('reads coordinates printed with decimal commas', () => {
    expect(
      parseLocation('fused -26,107600,28,056800 hAcc=14,5 et=+3d2h alt=1560.0', 'fused', false, null),
    ).toMatchObject({
      latitude: -26.1076,
      longitude: 28.0568,
      accuracy_m: 14.5,
      elapsed_realtime_ms: (3 * 24 + 2) * 3_600_000,
    });
  });

  it('parses elapsed times and uptime, and refuses what is not one', () => {
    expect(parseElapsed('+2d11h54m48s258ms')).toBe(((2 * 24 + 11) * 60 + 54) * 60_000 + 48_258);
    expect(parseElapsed('0')).toBe(0);
    expect(parseElapsed('+soon')).toBeNull();
    expect(parseUptime('3692.34 27150.12\n')).toBe(3_692_340);
    expect(parseUptime('')).toBeNull();
  });
});
