/** Tests a team keeps (issue 59): a debug session exported as a Maestro flow, and flows run on many devices. */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { serialSchema } from '../../bus/messages/devices.js';
import { flowsRequests, flowVariablesSchema, MAX_FLOW_DEVICES } from '../../bus/messages/flows.js';
import { sessionIdSchema, sessionsRequests } from '../../bus/messages/sessions.js';
import type { ResponseOf } from '../../bus/registry.js';
import { ArgumentError, defineTool, ToolError, type ExtraContent } from '../define-tool.js';
import { allowForeignPackage, packageScope } from './admin-scope.js';

export const exportTest = defineTool({
  name: 'export_test',
  answers: 'sessions.export',
  toolset: 'flows',
  kind: 'read',
  title: 'Export a session as a Maestro flow',
  description:
    "Writes a debug session's UI steps (launch, taps, typing, keys, scrolls, swipes, waits, assertions) as a Maestro flow: elements by id, text or description as Maestro selects them, a final assertion of the last screen. Password text becomes ${VARIABLE}. Run it with run_flow or maestro test.",
  input: z.object({ session_id: sessionIdSchema }),
  output: sessionsRequests['sessions.export'].response,
  projectIndependent: true,
  async handle(args, ctx) {
    const r = await ctx.bus.request(
      'sessions.export',
      { session_id: args.session_id },
      { signal: ctx.signal },
    );
    if (r.commands === 0) {
      throw new ToolError(
        `Debug session ${r.session_id} has no UI steps to export (${r.left_out.length} agent action${r.left_out.length === 1 ? '' : 's'} without one). Steps are recorded from droidbus's UI and app tools in sessions since this version.`,
        r,
        'not_found',
      );
    }
    const notes = [
      r.variables.length > 0
        ? `Variables to give when running (password fields, never recorded): ${r.variables.map((v) => `${v.name}${v.field ? ` (${v.field})` : ''}`).join(', ')}.`
        : null,
      r.left_out.length > 0
        ? `Left out (no UI step): ${r.left_out.slice(0, 10).join(', ')}${r.left_out.length > 10 ? ', …' : ''}.`
        : null,
    ].filter((l): l is string => l !== null);
    return {
      text: `${r.commands} commands from debug session ${r.session_id}:\n\n${r.yaml}${notes.length > 0 ? `\n${notes.join('\n')}` : ''}`,
      structured: r,
    };
  },
});

type FlowRun = ResponseOf<'flows.run'>;

function deviceLines(r: FlowRun): string[] {
  return r.devices.flatMap((d) => {
    const head = d.passed
      ? `${d.serial}: passed, ${d.commands_run} commands in ${(d.duration_ms / 1000).toFixed(1)} s`
      : `${d.serial}: FAILED at ${d.failed!.index}. ${d.failed!.command} (${d.failed!.file}:${d.failed!.line}): ${d.failed!.reason}`;
    const lines = [head, ...d.warnings.map((w) => `  warning: ${w}`)];
    if (d.screen !== null) {
      lines.push(
        `  screen ${d.screen.screen_hash}${d.screen.title ? ` "${d.screen.title}"` : ''}${d.screen.screenshot ? `, screenshot ${d.screen.screenshot}` : ''}:`,
        ...d.screen.rows.slice(0, 20).map((row) => `    ${row}`),
      );
    }
    return lines;
  });
}

/** A run's answer in words: the summary line, then each device's outcome (the tool's and the CLI's). */
export function flowRunText(r: FlowRun): string {
  return [
    `${r.flow.name ?? 'Flow'} (${r.flow.app_id}, ${r.flow.commands} commands) on ${r.devices.length} device${r.devices.length === 1 ? '' : 's'}: ${r.passed} passed, ${r.failed} failed in ${(r.wall_ms / 1000).toFixed(1)} s.`,
    ...deviceLines(r),
  ].join('\n');
}

export const runFlow = defineTool({
  name: 'run_flow',
  answers: 'flows.run',
  toolset: 'flows',
  kind: 'write',
  title: 'Run a Maestro flow',
  description:
    'Runs a Maestro flow (a project file, or its text) on one device or many at once through droidbus. Answers per device: passed, or the failing step, why, and the screen there. Commands it does not run are refused by name before anything runs.',
  input: z.object({
    path: z.string().min(1).max(4096).optional().describe('The flow file, in the project'),
    yaml: z
      .string()
      .min(1)
      .max(256 * 1024)
      .optional()
      .describe('Or the flow itself'),
    device_serials: z
      .array(serialSchema)
      .min(1)
      .max(MAX_FLOW_DEVICES)
      .optional()
      .describe('Devices to run on'),
    device_count: z
      .number()
      .int()
      .min(1)
      .max(MAX_FLOW_DEVICES)
      .optional()
      .describe('Or the first N online devices (default: the one online)'),
    env: flowVariablesSchema.optional().describe('Variables: ${NAME} in the flow'),
    lookup_timeout_ms: z
      .number()
      .int()
      .min(0)
      .max(60_000)
      .default(17_000)
      .describe("How long to look for an element (Maestro's 17,000)"),
    allow_foreign_package: allowForeignPackage,
  }),
  output: flowsRequests['flows.run'].response,
  projectIndependent: false,
  async handle(args, ctx) {
    if ((args.path === undefined) === (args.yaml === undefined)) {
      throw new ArgumentError(
        'Give the flow as path (a file in the project) or yaml (its text), one of them.',
      );
    }
    if (args.device_serials !== undefined && args.device_count !== undefined) {
      throw new ArgumentError('Give device_serials or device_count, not both.');
    }
    const r = await ctx.bus.request(
      'flows.run',
      {
        root: ctx.session.project.root,
        ...(args.path !== undefined ? { path: args.path } : {}),
        ...(args.yaml !== undefined ? { yaml: args.yaml } : {}),
        ...(args.device_serials !== undefined ? { serials: args.device_serials } : {}),
        ...(args.device_count !== undefined ? { count: args.device_count } : {}),
        env: args.env ?? {},
        lookup_timeout_ms: args.lookup_timeout_ms,
        scope: packageScope(ctx, args.allow_foreign_package),
      },
      { signal: ctx.signal, origin: ctx.origin, onProgress: (p) => ctx.progress(p) },
    );
    const text = flowRunText(r);
    // A failing flow is the run's answer, not a failed call: the first failure's screen comes with it.
    const shot = r.devices.find((d) => d.screen?.screenshot)?.screen?.screenshot;
    const image = shot ? await readFile(shot).catch(() => null) : null;
    const before: ExtraContent[] =
      image === null ? [] : [{ type: 'image', data: image.toString('base64'), mimeType: 'image/jpeg' }];
    return { text, structured: r, before };
  },
});

export const flowTools = [exportTest, runFlow];
