import { z } from 'zod';
import {
  componentSchema,
  dataUriSchema,
  intentExtraSchema,
  intentNameSchema,
  packageNameSchema,
} from '../../bus/messages/extras.js';
import { ArgumentError } from '../define-tool.js';
import { responseOf } from '../responses.js';
import { defineDeviceTool } from '../define-device-tool.js';
import { packageScope } from './admin-scope.js';

export const sendIntent = defineDeviceTool({
  name: 'send_intent',
  answers: 'device.send_intent',
  toolset: 'device-extras',
  kind: 'write',
  title: 'Send an intent',
  description:
    "Sends an intent with `am start` (waits for the launch), `am broadcast` or `am startservice`: action, data URI, category, explicit component or package, and typed extras. Every part is validated and passed as its own quoted argument. data_uri refuses the schemes open_deep_link refuses (javascript, vbscript, data, file, content, intent, about, blob). A broadcast to a package outside the project's (or to every app) needs allow_foreign_package: true. `am` errors are tool errors even when it exits 0.",
  input: z.object({
    mode: z
      .enum(['start', 'broadcast', 'start-service'])
      .describe('start an activity, send a broadcast, or start a service'),
    action: intentNameSchema('an action')
      .optional()
      .describe('Intent action, e.g. android.intent.action.VIEW'),
    data_uri: dataUriSchema.optional(),
    category: intentNameSchema('a category')
      .optional()
      .describe('Intent category, e.g. android.intent.category.BROWSABLE'),
    component: componentSchema.optional(),
    package: packageNameSchema
      .optional()
      .describe('Limit the intent to this package (-p), e.g. com.example.app'),
    extras: z
      .array(intentExtraSchema)
      .max(32)
      .default([])
      .describe('Typed extras, e.g. [{"key": "user_id", "type": "int", "value": "42"}] (at most 32)'),
    allow_foreign_package: z
      .boolean()
      .default(false)
      .describe("Allow a broadcast outside the project's packages; only when the user asked for it"),
  }),
  output: responseOf('device.send_intent').extend({
    device_serial: z.string(),
    mode: z.string(),
  }),
  projectIndependent: false,
  async handle(args, ctx) {
    if (
      args.action === undefined &&
      args.data_uri === undefined &&
      args.component === undefined &&
      args.package === undefined
    ) {
      throw new ArgumentError('An intent needs at least one of action, data_uri, component or package.');
    }
    const componentPackage = args.component?.slice(0, args.component.indexOf('/'));
    if (componentPackage !== undefined && args.package !== undefined && componentPackage !== args.package) {
      throw new ArgumentError(`component ${args.component} is not in package ${args.package}.`);
    }
    const r = await ctx.ask('device.send_intent', {
      mode: args.mode,
      extras: args.extras,
      ...(args.action !== undefined ? { action: args.action } : {}),
      ...(args.data_uri !== undefined ? { data_uri: args.data_uri } : {}),
      ...(args.category !== undefined ? { category: args.category } : {}),
      ...(args.component !== undefined ? { component: args.component } : {}),
      ...(args.package !== undefined ? { package: args.package } : {}),
      ...(args.mode === 'broadcast' ? { scope: packageScope(ctx, args.allow_foreign_package) } : {}),
    });
    return {
      text: `${r.output || `am ${args.mode} done`} (${ctx.serial})`,
      structured: { device_serial: ctx.serial, mode: args.mode, ...r },
    };
  },
});

export const intentTools = [sendIntent];
