import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { limitParam } from '../params.js';
import { devicePathSchema, exchangeNameSchema } from '../../bus/messages/extras.js';
import { TEXT_BUDGET } from '../budgets.js';
import { defineDeviceTool } from '../define-device-tool.js';
import type { ExtraContent } from '../define-tool.js';
import { deviceResponseOf, responseOf } from '../responses.js';

/** Most characters of a pulled file's content returned inline (base64 for binary content). */
const MAX_PULL_ANSWER_CHARS = 400_000;

const ALLOW_HINT =
  'Only folders the user allowed with `droidbus storage allow SERIAL FOLDER` are reachable; paths are resolved on the device first, so symlinks that lead out, .. and special files are refused.';

export const listDeviceFiles = defineDeviceTool({
  name: 'list_device_files',
  answers: 'device.list_files',
  toolset: 'device-extras',
  kind: 'read',
  title: 'List device files',
  description: `Lists a device folder: name, type (file, dir, link, other), size, mode and modification time. ${ALLOW_HINT}`,
  input: z.object({
    path: devicePathSchema,
    limit: limitParam('Entries', 200, 1000),
  }),
  output: deviceResponseOf('device.list_files'),
  async handle(args, ctx) {
    const { serial } = ctx;
    const r = await ctx.ask('device.list_files', { path: args.path, limit: args.limit });
    const lines = r.entries.map(
      (e) =>
        `${e.type === 'dir' ? 'd' : e.type === 'link' ? 'l' : e.type === 'file' ? '-' : '?'} ${e.mode} ${String(e.size).padStart(10)} ${e.modified} ${e.name}`,
    );
    return {
      text: [
        `${r.resolved_path} on ${serial}: ${r.total} entr${r.total === 1 ? 'y' : 'ies'}${r.truncated ? ` (first ${r.entries.length}; raise limit)` : ''}`,
        ...lines,
      ].join('\n'),
      structured: { device_serial: serial, ...r },
    };
  },
});

export const pullDeviceFile = defineDeviceTool({
  name: 'pull_device_file',
  answers: 'device.pull_file',
  toolset: 'device-extras',
  kind: 'write',
  title: 'Pull a device file',
  description: `Copies a regular device file (at most 50 MiB) into droidbus's exchange folder on the host and returns where it went. Its content also comes back inline as an embedded resource when it fits max_inline_chars (UTF-8 text as is, other content in base64). An existing exchange file is kept unless overwrite: true. ${ALLOW_HINT}`,
  input: z.object({
    path: devicePathSchema,
    exchange_name: exchangeNameSchema
      .optional()
      .describe("Name of the copy in droidbus's exchange folder (default: the device file's name)"),
    overwrite: z.boolean().default(false).describe('Replace an exchange file of the same name'),
    max_inline_chars: z
      .number()
      .int()
      .min(0)
      .max(MAX_PULL_ANSWER_CHARS)
      .optional()
      .describe(`Most characters of content returned inline (default 40,000; 0: none)`),
  }),
  output: responseOf('device.pull_file')
    .pick({
      device_path: true,
      resolved_path: true,
      bytes: true,
      exchange_name: true,
      host_path: true,
      mime_type: true,
    })
    .extend({
      device_serial: z.string(),
      /** How the content came back: as text, as an embedded resource, or not at all (too large). */
      inline: z.enum(['text', 'resource', 'none']),
    }),
  maxAnswerChars: MAX_PULL_ANSWER_CHARS + 1000,
  async handle(args, ctx) {
    const { serial } = ctx;
    const inlineLimit = args.max_inline_chars ?? TEXT_BUDGET;
    const r = await ctx.ask('device.pull_file', {
      path: args.path,
      overwrite: args.overwrite,
      ...(args.exchange_name !== undefined ? { exchange_name: args.exchange_name } : {}),
    });
    const uri = pathToFileURL(r.host_path).href;
    const before: ExtraContent[] = [];
    let inline: 'text' | 'resource' | 'none' = 'none';
    const blob =
      r.binary === null
        ? null
        : Buffer.from(r.binary.buffer, r.binary.byteOffset, r.binary.byteLength).toString('base64');
    if (r.text !== null && r.text.length <= inlineLimit) {
      before.push({ type: 'resource', resource: { uri, mimeType: r.mime_type, text: r.text } });
      inline = 'text';
    } else if (blob !== null && blob.length <= inlineLimit) {
      before.push({ type: 'resource', resource: { uri, mimeType: r.mime_type, blob } });
      inline = 'resource';
    }
    const size = r.text?.length ?? blob?.length;
    const why =
      inline !== 'none'
        ? ''
        : size === undefined
          ? ' (too large to return inline: read it at host_path)'
          : ` (${size.toLocaleString('en-US')} characters inline, over max_inline_chars ${inlineLimit.toLocaleString('en-US')}: read it at host_path${size <= MAX_PULL_ANSWER_CHARS ? ', or pass a larger max_inline_chars' : ''})`;
    const structured = {
      device_serial: serial,
      device_path: r.device_path,
      resolved_path: r.resolved_path,
      bytes: r.bytes,
      exchange_name: r.exchange_name,
      host_path: r.host_path,
      mime_type: r.mime_type,
      inline,
    };
    return {
      before,
      text: `Pulled ${r.resolved_path} (${r.bytes} bytes) from ${serial} into the exchange folder as ${r.exchange_name}: ${r.host_path}${why}`,
      structured,
    };
  },
});

export const pushDeviceFile = defineDeviceTool({
  name: 'push_device_file',
  answers: 'device.push_file',
  toolset: 'device-extras',
  kind: 'destructive',
  title: 'Push a file to the device',
  description: `Copies a file from droidbus's exchange folder on the host (at most 50 MiB; put it there first: pull_device_file's host_path shows the folder, and a missing file's error names it) to a device path. Never replaces an existing device file unless overwrite: true, and never writes through a symlink. ${ALLOW_HINT}`,
  input: z.object({
    exchange_name: exchangeNameSchema.describe("The file's name in droidbus's exchange folder"),
    path: devicePathSchema.describe('Absolute device path of the new file, e.g. /sdcard/Download/input.json'),
    overwrite: z.boolean().default(false).describe('Replace an existing device file (destructive)'),
  }),
  output: deviceResponseOf('device.push_file'),
  async handle(args, ctx) {
    const r = await ctx.ask('device.push_file', {
      exchange_name: args.exchange_name,
      path: args.path,
      overwrite: args.overwrite,
    });
    return {
      text: `${r.replaced ? 'Replaced' : 'Wrote'} ${r.resolved_path} on ${ctx.serial} (${r.bytes} bytes) from the exchange file ${args.exchange_name}.`,
      structured: { device_serial: ctx.serial, ...r },
    };
  },
});

export const deviceFileTools = [listDeviceFiles, pullDeviceFile, pushDeviceFile];
