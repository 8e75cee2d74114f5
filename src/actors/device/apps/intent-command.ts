/**
 * `send_intent` on the device: the `am start | broadcast | startservice` argument vector, every part
 * a separate argv element (quoted by `shArgv`), and the check of what `am` printed — `am` exits 0
 * while printing `Error: …` for an intent that resolves to nothing.
 */
import { BusError } from '../../../bus/errors.js';
import type { Device } from '../../../device/device.js';
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import { shArgv } from '../../../adb/shell-command.js';
import { EXTRA_FLAG, extraValueProblem } from '../../../util/intent-args.js';
import { checkOpenableUri } from '../../../util/uri-scheme.js';
import type { HandlerContext } from '../../actor.js';

type IntentPayload = PayloadOf<'device.send_intent'>;

const SUBCOMMAND: Readonly<Record<IntentPayload['mode'], string>> = {
  start: 'start',
  broadcast: 'broadcast',
  'start-service': 'startservice',
};

/** The `am` argv of an intent. Validation repeats the bus schema's rules: the argv never depends on the caller. */
export function intentArgv(p: Omit<IntentPayload, 'serial'>): string[] {
  if (
    p.action === undefined &&
    p.data_uri === undefined &&
    p.component === undefined &&
    p.package === undefined
  ) {
    throw new BusError('INVALID', 'an intent needs at least one of action, data_uri, component or package');
  }
  if (p.component !== undefined && p.package !== undefined && !p.component.startsWith(`${p.package}/`)) {
    throw new BusError('INVALID', `component ${p.component} is not in package ${p.package}`);
  }
  const argv = ['am', SUBCOMMAND[p.mode]];
  if (p.mode === 'start') {
    // Wait for the launch, so a failure is reported rather than lost.
    argv.push('-W');
  }
  if (p.action !== undefined) {
    argv.push('-a', p.action);
  }
  if (p.data_uri !== undefined) {
    const checked = checkOpenableUri(p.data_uri);
    if (!checked.ok) {
      throw new BusError('INVALID', `data_uri: ${checked.message}`);
    }
    argv.push('-d', p.data_uri);
  }
  if (p.category !== undefined) {
    argv.push('-c', p.category);
  }
  for (const extra of p.extras) {
    const problem = extraValueProblem(extra.type, extra.value);
    if (problem) {
      throw new BusError('INVALID', `extra '${extra.key}': ${problem}`);
    }
    argv.push(EXTRA_FLAG[extra.type], extra.key, extra.value);
  }
  if (p.component !== undefined) {
    argv.push('-n', p.component);
  } else if (p.package !== undefined) {
    argv.push('-p', p.package);
  }
  return argv;
}

/** The error `am` reported in its output, or null (exit 0 is not enough: `Error:` lines come with it). */
export function amFailure(output: string, exitCode: number | null): string | null {
  const lines = output.split(/\r?\n/).map((l) => l.trim());
  const error = lines.find(
    (l) =>
      /^Error( type \d+)?:/.test(l) ||
      /^Exception occurred while executing/.test(l) ||
      /^java\.\w+(\.\w+)*Exception/.test(l),
  );
  if (error !== undefined) {
    const detail =
      lines.find((l) => /^Error:/.test(l)) ??
      lines.find((l, i) => i > lines.indexOf(error) && l !== '') ??
      error;
    return detail.slice(0, 500);
  }
  if (exitCode !== null && exitCode !== 0) {
    return `am exited with status ${exitCode}: ${lines.filter(Boolean).slice(-2).join(' ').slice(0, 400)}`;
  }
  return null;
}

/** `device.send_intent`: runs the intent and fails when `am` says it went nowhere. */
export async function sendIntent(
  device: Device,
  p: IntentPayload,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.send_intent'>> {
  const { serial } = device;
  const argv = intentArgv(p);
  const result = await device.shell(shArgv(argv), { signal: ctx.signal, timeoutMs: 30_000 });
  const output = `${result.stdout}${result.stderr ? `\n${result.stderr}` : ''}`.trim();
  const failure = amFailure(output, result.exitCode);
  if (failure !== null) {
    throw new BusError('FAILED', `am ${argv[1]} failed on ${serial}: ${failure}`, undefined, {
      output: output.slice(0, 2000),
    });
  }
  return { command: argv, output: output.slice(0, 4000) };
}
