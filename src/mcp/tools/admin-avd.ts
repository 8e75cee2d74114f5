import { z } from 'zod';
import { avdNameSchema, emulatorSerialSchema } from '../../bus/messages/admin.js';
import { defineTool } from '../define-tool.js';
import { responseOf } from '../responses.js';

/** The SDK's emulators: list the AVDs, start one, stop one. */

export const listAvds = defineTool({
  name: 'list_avds',
  answers: 'avd.list',
  toolset: 'device-settings',
  kind: 'read',
  title: 'List AVDs',
  description:
    "Lists the AVDs the SDK's emulator knows and the running emulators with their AVD names, for launch_avd and AVD-target run configurations. Says what to install when there is no emulator.",
  output: responseOf('avd.list'),
  projectIndependent: true,
  async handle(_args, ctx) {
    const r = await ctx.bus.request('avd.list', { root: ctx.session.project.root }, { signal: ctx.signal });
    const runningOf = (name: string): string | null =>
      r.running.find((e) => e.avd_name === name)?.serial ?? null;
    const lines =
      r.emulator === null
        ? [r.hint ?? 'No Android emulator was found.']
        : [
            `${r.avds.length} AVD${r.avds.length === 1 ? '' : 's'} (${r.emulator}):`,
            ...r.avds.map((a) => `  ${a}${runningOf(a) !== null ? ` — running as ${runningOf(a)}` : ''}`),
            ...(r.hint !== null ? [r.hint] : []),
          ];
    return { text: lines.join('\n'), structured: r };
  },
});

export const launchAvd = defineTool({
  name: 'launch_avd',
  answers: 'avd.launch',
  toolset: 'device-settings',
  kind: 'write',
  title: 'Start an emulator',
  description:
    "Starts an AVD with the SDK's emulator and waits (up to 60 s, with progress) until adb lists it online and booted; returns its serial, and already_running when it was running (or being started) already, so no second emulator starts. Cancelling the call stops an emulator it started.",
  input: z.object({ name: avdNameSchema }),
  output: responseOf('avd.launch'),
  projectIndependent: true,
  async handle(args, ctx) {
    const r = await ctx.bus.request(
      'avd.launch',
      { root: ctx.session.project.root, name: args.name },
      { signal: ctx.signal, origin: ctx.origin, onProgress: (p) => ctx.progress(p) },
    );
    return {
      text: r.already_running
        ? `${r.avd_name} is already running as ${r.serial}.`
        : `${r.avd_name} is online as ${r.serial} (started in ${(r.elapsed_ms / 1000).toFixed(1)} s).`,
      structured: r,
    };
  },
});

export const stopAvd = defineTool({
  name: 'stop_avd',
  answers: 'avd.stop',
  toolset: 'device-settings',
  kind: 'destructive',
  title: 'Stop an emulator',
  description:
    'Stops an emulator through its console (`kill`, as `adb emu kill`) and succeeds once adb no longer lists it (up to 30 s). Unsaved emulator state is lost.',
  input: z.object({ serial: emulatorSerialSchema }),
  output: responseOf('avd.stop').pick({ serial: true, avd_name: true, elapsed_ms: true }),
  projectIndependent: true,
  async handle(args, ctx) {
    const r = await ctx.bus.request(
      'avd.stop',
      { serial: args.serial },
      { signal: ctx.signal, origin: ctx.origin },
    );
    return {
      text: `Stopped ${r.serial}${r.avd_name !== null ? ` (${r.avd_name})` : ''}; adb no longer lists it.`,
      structured: r,
    };
  },
});

export const avdTools = [listAvds, launchAvd, stopAvd];
