/**
 * Device tools come from one declaration (defineDeviceTool): a tool whose `device_serial` is the
 * shared "the device this acts on" parameter is of the device family, so its serial is resolved in
 * one place; any other `device_serial` says in its own words what it selects (a filter, a target).
 */
import { describe, expect, it } from 'vitest';
import { ALL_TOOLS } from '../../src/mcp/registry.js';
import { optionalSerial } from '../../src/mcp/tools/device-serial.js';

const shared = new Set([optionalSerial.description]);

describe('device tools', () => {
  it('declare the shared device_serial only through defineDeviceTool', () => {
    const stray = ALL_TOOLS.filter((t) => {
      const serial = (t.input.shape as Record<string, { description?: string }>)['device_serial'];
      return serial !== undefined && t.family !== 'device' && shared.has(serial.description);
    }).map((t) => t.name);
    expect(stray).toEqual([]);
  });

  it('put device_serial first and are many', () => {
    const devices = ALL_TOOLS.filter((t) => t.family === 'device');
    expect(devices.length).toBeGreaterThan(40);
    for (const t of devices) {
      expect(Object.keys(t.input.shape)[0], t.name).toBe('device_serial');
    }
  });

  it('take device_serial as optional on every one: with one device online it is that device', () => {
    const required = ALL_TOOLS.filter((t) => t.family === 'device')
      .filter(
        (t) => !(t.input.shape as Record<string, { isOptional(): boolean }>)['device_serial']!.isOptional(),
      )
      .map((t) => t.name);
    expect(required).toEqual([]);
  });
});
