import { z } from 'zod';
import { serialSchema } from '../../bus/messages/devices.js';
import { ToolError, defineTool } from '../define-tool.js';
import { responseOf } from '../responses.js';
import { buildAnswer, requireRoot } from './build.js';
import { canonicalSerial } from './device-serial.js';

/**
 * run_run_configuration: the run actor's `run.configuration` (resolve, build, install, launch — the
 * workflow and its rules live behind the bus, so the host's page runs the same one). The tool turns
 * its answer into text: the result, the notes, and the build's answer when the build failed.
 */

const runOutput = responseOf('run.configuration')
  .omit({ build: true })
  .extend({
    build_result: z.string().nullable().describe("The build step's answer, as run_gradle_task gives it"),
  });

export const runRunConfiguration = defineTool({
  name: 'run_run_configuration',
  answers: 'run.configuration',
  toolset: 'build-config',
  kind: 'open_world',
  title: 'Run a run configuration',
  description:
    'Runs a run configuration (list_run_configurations) as Run App does: builds like run_gradle_task, installs the APK that build wrote (recorded) and launches it, with the launch time. Never starts an emulator (call launch_avd). Cancelling cancels the build, not the install or launch.',
  input: z.object({
    name: z.string().min(1).max(300).describe('Configuration name (list_run_configurations)'),
    device_serial: serialSchema
      .optional()
      .describe("The device to run on (default: the configuration's target, or the only online device)"),
  }),
  output: runOutput,
  async handle(args, ctx) {
    const { build, ...ran } = await ctx.bus.request(
      'run.configuration',
      {
        root: requireRoot(ctx),
        name: args.name,
        ...(args.device_serial !== undefined
          ? { device_serial: (await canonicalSerial(ctx, args.device_serial))! }
          : {}),
        want_progress: ctx.wantsProgress,
      },
      // Cancelling the call cancels the build; a client that goes away does not (see cancelSignal).
      { signal: ctx.cancelSignal, origin: ctx.origin, onProgress: (p) => ctx.progress(p) },
    );
    const buildText = build ? buildAnswer(build, ctx).text : null;
    const structured = { ...ran, build_result: buildText };
    if (ran.outcome !== 'done') {
      const lines = [
        ran.result,
        ...ran.notes,
        ...(ran.outcome === 'build_failed' || ran.outcome === 'cancelled' ? [buildText ?? ''] : []),
      ];
      throw new ToolError(lines.join('\n'), structured);
    }
    return { text: [ran.result, ...ran.notes].join('\n'), structured };
  },
});

export const runConfigurationTools = [runRunConfiguration];
