import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';
import { loadMappingIndex, mappingInfo, retraceTrace } from '../actors/retrace/index.js';
import type { MappingIndex } from '../actors/retrace/index.js';
import { MappingError } from '../actors/retrace/index.js';

const USAGE = `Usage: droidbus retrace --mapping FILE [TRACE_FILE] [--verbose] [--json]

Deobfuscates a Java/Android stack trace with an R8 or ProGuard mapping file and prints it the way
R8's retrace prints it: inlined frames expanded, ambiguous frames as '<OR> at …' lines, compiler
synthesized frames removed, anything it cannot map left as it was. Logcat lines keep their prefix.

Reads the trace from TRACE_FILE, or from standard input when it is not given.

Options:
  --mapping FILE   the mapping file (app/build/outputs/mapping/<variant>/mapping.txt)
  --verbose        print methods with their signatures (R8's --verbose)
  --json           print the structured result: text, frames, unmapped frames, map ids, mapping facts
  --help           show this help

Exit status: 0 on success, 2 on bad usage or a missing, unreadable or invalid mapping or trace file.`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function fail(message: string): number {
  process.stderr.write(`droidbus retrace: ${message}\n`);
  return 2;
}

async function run(argv: string[]): Promise<number> {
  let values: { mapping?: string; verbose?: boolean; json?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        mapping: { type: 'string' },
        verbose: { type: 'boolean' },
        json: { type: 'boolean' },
      },
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (values.mapping === undefined || values.mapping === '') {
    throw new UsageError('--mapping FILE is required');
  }
  if (positionals.length > 1) {
    throw new UsageError(`expected at most one trace file, got ${positionals.length}`);
  }
  let index: MappingIndex;
  try {
    index = await loadMappingIndex(values.mapping);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      return fail(`mapping file not found: ${values.mapping}`);
    }
    if (err instanceof MappingError) {
      return fail(`not a valid mapping file: ${values.mapping}: ${err.message}`);
    }
    return fail(
      `cannot read mapping file ${values.mapping}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const traceFile = positionals[0];
  let trace: string;
  try {
    trace = traceFile === undefined ? await readStdin() : await readFile(traceFile, 'utf8');
  } catch (err) {
    return fail(
      `cannot read trace file ${traceFile ?? '<stdin>'}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  let result;
  try {
    result = retraceTrace(index, trace, { verbose: values.verbose === true });
  } catch (err) {
    if (err instanceof MappingError) {
      return fail(`not a valid mapping file: ${values.mapping}: ${err.message}`);
    }
    throw err;
  }
  if (values.json === true) {
    process.stdout.write(JSON.stringify({ ...result, mapping: mappingInfo(index) }, null, 2) + '\n');
  } else if (result.text !== '') {
    process.stdout.write(result.text.endsWith('\n') ? result.text : result.text + '\n');
  }
  return 0;
}

export const command: CliCommand = {
  name: 'retrace',
  summary: 'deobfuscate a stack trace with an R8/ProGuard mapping file',
  usage: USAGE,
  run,
};
