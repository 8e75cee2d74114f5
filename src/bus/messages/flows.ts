import { z } from 'zod';
import { defineRequest } from '../contract.js';
import { serialSchema } from './devices.js';
import { packageScopeArgSchema } from './extras.js';

/**
 * The flows actor (issue 59): a Maestro flow (src/flows/maestro-flow.ts) run through droidbus's own
 * actors on one device or many at once. It reads the flow (a file inside the project, or the text
 * itself), refuses what it cannot run before anything runs, and answers per device.
 */

export const MAX_FLOW_DEVICES = 32;
/** A flow's text, and every file it runs. */
export const MAX_FLOW_BYTES = 256 * 1024;

export const flowVariablesSchema = z
  .record(
    z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name')
      .max(100),
    z.string().max(1000),
  )
  .refine((env) => Object.keys(env).length <= 50, 'at most 50 variables');

const failedStepSchema = z.object({
  /** The command's place in the run, from 1. */
  index: z.number().int(),
  /** Its label, else the command as written (variables not filled in). */
  command: z.string(),
  file: z.string(),
  line: z.number().int(),
  reason: z.string(),
});

export const deviceRunSchema = z.object({
  serial: z.string(),
  passed: z.boolean(),
  duration_ms: z.number(),
  commands_run: z.number().int(),
  failed: failedStepSchema.nullable(),
  warnings: z.array(z.string()),
  /** The screen where it failed: its title, hash, rows as get_ui_hierarchy shows them, and a screenshot file. */
  screen: z
    .object({
      title: z.string().nullable(),
      screen_hash: z.string(),
      rows: z.array(z.string()),
      screenshot: z.string().nullable(),
    })
    .nullable(),
  screenshots: z.array(z.string()),
  /** How long each command that ran took, ms, in order (the failing one last). */
  step_ms: z.array(z.number()),
});

export const flowsRequests = {
  'flows.run': defineRequest({
    actor: 'flows',
    request: z.object({
      /** The project whose files the flow may name (runFlow) and whose packages it may launch. */
      root: z.string().min(1).max(4096).nullable(),
      /** The flow file, relative to the project (or absolute inside it); or `yaml`. */
      path: z.string().min(1).max(4096).optional(),
      yaml: z.string().min(1).max(MAX_FLOW_BYTES).optional(),
      /** These devices; else the first `count` online ones (by serial); else the one online device. */
      serials: z.array(serialSchema).min(1).max(MAX_FLOW_DEVICES).optional(),
      count: z.number().int().min(1).max(MAX_FLOW_DEVICES).optional(),
      env: flowVariablesSchema.default({}),
      lookup_timeout_ms: z.number().int().min(0).max(60_000).default(17_000),
      scope: packageScopeArgSchema,
    }),
    response: z.object({
      flow: z.object({
        name: z.string().nullable(),
        app_id: z.string(),
        commands: z.number().int(),
        variables: z.array(z.string()),
      }),
      /** Where screenshots were written: a folder per device. */
      out_dir: z.string(),
      wall_ms: z.number(),
      passed: z.number().int(),
      failed: z.number().int(),
      devices: z.array(deviceRunSchema),
    }),
    timeoutMs: 3_600_000,
  }),
};
