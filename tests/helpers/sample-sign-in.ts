import { expect } from 'vitest';
import { SAMPLE_PACKAGE } from '../../src/sim/index.js';
import type { DeviceWorld } from './device-world.js';

/**
 * Signs in on the sim's sample app as an agent does: restart_app (its login screen afresh), then
 * ui_fill_input with the username `ada` and `password`, submitting. Answers the fill's text.
 */
export async function signInSample(world: DeviceWorld, serial: string, password: string): Promise<string> {
  const restart = await world.call('restart_app', {
    device_serial: serial,
    package: SAMPLE_PACKAGE,
    allow_foreign_package: true,
  });
  expect(restart.isError, restart.text).toBe(false);
  const r = await world.call('ui_fill_input', {
    device_serial: serial,
    fields: [
      { field: 'Username', text: 'ada' },
      { field: 'Password', text: password },
    ],
    submit: 'Sign in',
  });
  expect(r.isError, r.text).toBe(false);
  return r.text;
}
