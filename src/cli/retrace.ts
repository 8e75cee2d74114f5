import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { CliCommand } from './command.js';
import { UsageError } from './command.js';
import { loadMappingIndex, mappingInfo, retraceTrace } from '../actors/retrace/index.js';
import type { MappingIndex } from '../actors/retrace/index.js';
import { MappingError } from '../actors/retrace/index.js';
import { mapIdsInTrace } from '../actors/retrace/retrace-match.js';

const USAGE = `Usage: droidbus retrace --mapping FILE [TRACE_FILE] [--verbose] [--json] [--force]

Deobfuscates a Java/Android stack trace with an R8 or ProGuard mapping file and prints it the way
R8's retrace prints it: inlined frames expanded, ambiguous frames as '<OR> at …' lines, compiler
synthesized frames removed, anything it cannot map left as it was. Logcat lines keep their prefix.

Reads the trace from TRACE_FILE, or from standard input when it is not given.

Options:
  --mapping FILE   the mapping file (app/build/outputs/mapping/<variant>/mapping.txt)
  --verbose        print methods with their signatures (R8's --verbose)
  --json           print the structured result: text, frames, unmapped frames, map ids, mapping facts
  --force          retrace even when the trace's r8-map-id frames name another build's mapping than
                   FILE's pg_map_id (the names printed are then likely wrong)
  --help           show this help

Exit status: 0 on success, 2 on bad usage, a missing, unreadable or invalid mapping or trace file,
or a trace from another build than the mapping's (without --force).`;

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
  let values: { mapping?: string; verbose?: boolean; json?: boolean; force?: boolean };
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
        force: { type: 'boolean' },
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
  // R8 names the build in each frame (`r8-map-id-<id>`) and in the mapping (`# pg_map_id:`): a
  // mismatch means another build's mapping, whose names would be confidently wrong.
  const mappingId = mappingInfo(index).mapId;
  const others = mappingId === null ? [] : mapIdsInTrace(trace).filter((id) => id !== mappingId);
  if (others.length > 0) {
    const what = `the trace's frames name map id ${others.join(', ')} (r8-map-id-…), but ${values.mapping} is pg_map_id ${mappingId}: it is another build's mapping`;
    if (values.force !== true) {
      return fail(
        `${what}. Use the mapping.txt of the build that made this trace, or pass --force to retrace anyway.`,
      );
    }
    process.stderr.write(
      `droidbus retrace: warning: ${what}; retracing anyway (--force), the names may be wrong\n`,
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
