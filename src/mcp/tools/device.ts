import { z } from 'zod';
import { deviceEntrySchema } from '../../bus/messages/devices.js';
import { defineTool } from '../define-tool.js';

const listDevicesOutput = z.object({
  adb_server: z.object({ address: z.string(), up: z.boolean(), message: z.string() }),
  devices: z.array(deviceEntrySchema),
  online: z.number().int(),
});

export const listDevices = defineTool({
  name: 'list_devices',
  toolset: 'core',
  kind: 'R',
  title: 'List devices',
  description:
    'Lists the devices and emulators the adb server knows, in every state (device, unauthorized, offline, …), with model, connection (usb, tcp, emulator) and, for a device that cannot be used yet, what the user must do. Starts a local adb server if none runs.',
  input: z.object({}),
  output: listDevicesOutput,
  projectIndependent: true,
  async handle(_args, ctx) {
    const { server, devices } = await ctx.bus.request('devices.list', {}, { signal: ctx.signal });
    const online = devices.filter((d) => d.state === 'device').length;
    const lines = devices.map(
      (d) => `${d.serial}  ${d.state}  ${d.model ?? '?'}  (${d.connection})${d.hint ? ` — ${d.hint}` : ''}`,
    );
    const head = server.up
      ? `${online} of ${devices.length} device${devices.length === 1 ? '' : 's'} online (adb server ${server.address}).`
      : `The adb server at ${server.address} is not reachable: ${server.message}`;
    return {
      text: [head, ...lines].join('\n'),
      structured: { adb_server: server, devices, online },
    };
  },
});

export const deviceTools = [listDevices];
