/**
 * Evidence: none — the command table; each command cites its source.
 */
import type { CommandFn } from '../../shell/command.js';
import { GENERIC_COMMANDS } from '../../shell/index.js';
import type { Device } from '../device.js';
import { am, monkey } from './am.js';
import { appops } from './appops.js';
import { cmd } from './cmd.js';
import { dumpsys } from './dumpsys.js';
import { input } from './input.js';
import { locksettings } from '../lock-screen.js';
import { logcat } from './logcat.js';
import { pm } from './pm.js';
import { getprop, ime, setprop, settings, start, stop, svc, wm } from './settings-commands.js';
import { id, kill, log, pidof, ps, runAs, uname, uptime, whoami } from './system-commands.js';
import { screencap, uiautomator } from './ui-commands.js';

/** The device's command table: the generic shell utilities plus Android's tools. Shared by all devices. */
export const DEVICE_COMMANDS: ReadonlyMap<string, CommandFn<Device>> = new Map<string, CommandFn<Device>>([
  ...GENERIC_COMMANDS,
  ['am', am],
  ['monkey', monkey],
  ['pm', pm],
  ['appops', appops],
  ['cmd', cmd],
  ['dumpsys', dumpsys],
  ['input', input],
  ['logcat', logcat],
  ['locksettings', locksettings],
  ['settings', settings],
  ['wm', wm],
  ['svc', svc],
  ['getprop', getprop],
  ['setprop', setprop],
  ['start', start],
  ['stop', stop],
  ['ime', ime],
  ['uiautomator', uiautomator],
  ['screencap', screencap],
  ['id', id],
  ['whoami', whoami],
  ['ps', ps],
  ['pidof', pidof],
  ['kill', kill],
  ['run-as', runAs],
  ['uname', uname],
  ['uptime', uptime],
  ['log', log],
]);
