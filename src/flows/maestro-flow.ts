/**
 * Maestro flows read as Maestro reads them (mobile-dev-inc/maestro v1.39.10, dcd2f206):
 * `YamlCommandReader` (a config section, `---`, a command list), `YamlConfig` (appId, name, env),
 * `YamlFluentCommand` (each command a one-key map, or a bare name for the commands that take
 * nothing), and each command's own `Yaml*` class for its fields and its short form. The commands
 * droidbus runs are expanded here into a flat list of operations, `runFlow` inlined with its env and
 * every `${NAME}` substituted, so that a flow droidbus cannot run is refused — by the command's name
 * and line — before anything runs on a device.
 */
import path from 'node:path';
import { LineCounter, parseAllDocuments, isMap, isSeq, visit, type Node } from 'yaml';
import {
  definedValue,
  FlowEnvError,
  namesIn,
  refuseScripts,
  substitute,
  substituteAll,
} from './maestro-env.js';
import { MAESTRO_ONLY, opOf, SUPPORTED_COMMANDS, type FlowOp } from './commands/index.js';
import { commandOf, FlowError, isRaw, refuseUnknown, str, type Raw } from './commands/read.js';

export { FlowError } from './commands/read.js';

export interface FlowCommand {
  /** Its place in the run, from 1. */
  index: number;
  /** The Maestro command as written (`tapOn`). */
  name: string;
  /** Where it is: the flow file (relative to the first flow's folder) and line. */
  file: string;
  line: number;
  /** Its `label`, else the command as written — variables not filled in, so no secret shows. */
  describe: string;
  optional: boolean;
  op: FlowOp;
}

export interface Flow {
  appId: string;
  name: string | null;
  commands: FlowCommand[];
  /** The variables the flow uses, by name (values are not kept here). */
  variables: string[];
}

/** Reads a flow file named relative to the flow that names it; throws FlowError when it cannot. */
export type ReadFlowFile = (file: string) => Promise<{ text: string; path: string }>;

const MAX_FLOW_COMMANDS = 1000;
const MAX_DEPTH = 8;
/** YAML aliases (`*name`) one document may use: a flow names a selector or two again, not a tree. */
export const MAX_ALIASES_PER_DOCUMENT = 32;
/** Values (strings, numbers, maps, lists) one document may expand to, its aliases resolved. */
export const MAX_VALUES_PER_DOCUMENT = 20_000;

/** The values in a plain YAML value, itself included. */
function valuesIn(value: unknown): number {
  if (Array.isArray(value)) {
    return value.reduce((n: number, v) => n + valuesIn(v), 1);
  }
  if (value !== null && typeof value === 'object') {
    return Object.values(value).reduce((n: number, v) => n + valuesIn(v), 1);
  }
  return 1;
}
/** A command's words for a report: its label, else its name and a short form of what it takes. */
function describeCommand(name: string, raw: unknown): string {
  if (isRaw(raw) && typeof raw['label'] === 'string') {
    return raw['label'].slice(0, 200);
  }
  if (raw === null || raw === undefined) {
    return name;
  }
  const shown = typeof raw === 'string' ? raw : JSON.stringify(raw);
  return `${name}: ${shown.length > 120 ? `${shown.slice(0, 119)}…` : shown}`;
}

interface Scope {
  appId: string;
  env: Map<string, string>;
  file: string;
  depth: number;
  read: ReadFlowFile;
  out: FlowCommand[];
  variables: Set<string>;
  /** The files being expanded, to refuse a flow that runs itself. */
  stack: string[];
  /** The URI schemes the app declares (openLink). */
  schemes: readonly string[];
}

/**
 * An env section's values filled from `env` (the variables defined before it: Maestro evaluates a
 * DefineVariablesCommand's values together, then defines them) and read as its engine reads them.
 */
function defineAll(
  entries: readonly [string, string][],
  env: ReadonlyMap<string, string>,
  names: Set<string>,
  where: string,
): Map<string, string> {
  const out = new Map(env);
  for (const [k, v] of entries) {
    const value = filled(v, env, names, where);
    try {
      out.set(k, definedValue(k, value));
    } catch (err) {
      throw err instanceof FlowEnvError ? new FlowError(`${where}: ${err.message}`) : err;
    }
  }
  return out;
}

/** A config value (appId, an env default) with its `${NAME}` filled from `env`, the names noted. */
function filled(value: string, env: ReadonlyMap<string, string>, names: Set<string>, where: string): string {
  namesIn(value).forEach((n) => names.add(n));
  try {
    return substitute(value, env);
  } catch (err) {
    throw err instanceof FlowEnvError ? new FlowError(`${where}: ${err.message}`) : err;
  }
}

/**
 * A section as plain data, its aliases resolved (across its commands, as Maestro's reader does), within
 * the yaml library's bound on aliases that multiply and MAX_VALUES_PER_DOCUMENT values in all.
 */
function plain(doc: { toJS(): unknown }, file: string): unknown {
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (err) {
    throw new FlowError(`${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (valuesIn(value) > MAX_VALUES_PER_DOCUMENT) {
    throw new FlowError(
      `${file}: the flow expands to more than ${MAX_VALUES_PER_DOCUMENT.toLocaleString('en')} values in one section (YAML aliases repeating parts of it?)`,
    );
  }
  return value;
}

/** JavaScript in `${…}` anywhere in `value` refused, naming `where`. */
function noScripts(value: unknown, where: string): void {
  try {
    refuseScripts(value);
  } catch (err) {
    throw err instanceof FlowEnvError ? new FlowError(`${where}: ${err.message}`) : err;
  }
}

/** The config and command sections of a flow file, with each command's line. */
function sections(text: string, file: string): { config: Raw; items: { value: unknown; line: number }[] } {
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: true });
  if (!Array.isArray(docs)) {
    throw new FlowError(`${file}: empty flow`);
  }
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error) {
      throw new FlowError(`${file}: ${error.message.split('\n')[0]}`);
    }
    let aliases = 0;
    visit(doc, { Alias: () => void aliases++ });
    if (aliases > MAX_ALIASES_PER_DOCUMENT) {
      throw new FlowError(
        `${file}: ${aliases} YAML aliases (*name) in one section; a flow may use at most ${MAX_ALIASES_PER_DOCUMENT}`,
      );
    }
  }
  const present = docs.filter((d) => d.contents !== null);
  if (present.length !== 2) {
    throw new FlowError(
      `${file}: a flow has a config section and a commands section separated by "---" (appId: com.example, then ---, then - launchApp); it has ${present.length} section${present.length === 1 ? '' : 's'}`,
    );
  }
  const [configDoc, commandsDoc] = present as [(typeof present)[number], (typeof present)[number]];
  const config = plain(configDoc, file);
  if (!isRaw(config)) {
    throw new FlowError(`${file}: the config section is a map (appId: …)`);
  }
  noScripts(config, file);
  const seq = commandsDoc.contents;
  const values = plain(commandsDoc, file);
  if (!isSeq(seq) || !Array.isArray(values)) {
    throw new FlowError(`${file}: the commands section is a list (- launchApp …)`);
  }
  const items = seq.items.map((item, i) => ({
    value: values[i] as unknown,
    line: lines.linePos((item as Node).range?.[0] ?? 0).line,
  }));
  if (
    isMap(configDoc.contents) &&
    (config['onFlowStart'] !== undefined || config['onFlowComplete'] !== undefined)
  ) {
    throw new FlowError(`${file}: onFlowStart and onFlowComplete are not supported by droidbus`);
  }
  return { config, items };
}

function envOf(raw: unknown, where: string): [string, string][] {
  if (raw === undefined || raw === null) {
    return [];
  }
  if (!isRaw(raw)) {
    throw new FlowError(`${where}: env is a map of NAME: value`);
  }
  return Object.entries(raw).map(([k, v]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) {
      throw new FlowError(`${where}: ${k.slice(0, 40)} is not a variable name`);
    }
    return [k, str(v, where, k)];
  });
}

async function expand(scope: Scope, items: { value: unknown; line: number }[]): Promise<void> {
  for (const { value, line } of items) {
    const where = `${scope.file}:${line}`;
    noScripts(value, where);
    const { name, value: raw } = commandOf(value, where);
    if (name === 'runFlow') {
      await runFlow(scope, raw, where, line);
      continue;
    }
    if (MAESTRO_ONLY.has(name)) {
      throw new FlowError(
        `${where}: ${name} is a Maestro command droidbus does not run; it runs ${SUPPORTED_COMMANDS.join(', ')}`,
      );
    }
    if (!SUPPORTED_COMMANDS.includes(name)) {
      throw new FlowError(`${where}: ${name.slice(0, 60)} is not a Maestro command`);
    }
    let resolved: unknown;
    try {
      resolved = substituteAll(raw, scope.env);
    } catch (err) {
      throw err instanceof FlowEnvError ? new FlowError(`${where}: ${err.message}`) : err;
    }
    for (const name of namesIn(JSON.stringify(raw ?? ''))) {
      scope.variables.add(name);
    }
    if (scope.out.length >= MAX_FLOW_COMMANDS) {
      throw new FlowError(`${where}: the flow has more than ${MAX_FLOW_COMMANDS} commands`);
    }
    scope.out.push({
      index: scope.out.length + 1,
      name,
      file: scope.file,
      line,
      describe: describeCommand(name, raw),
      optional: isRaw(resolved) && resolved['optional'] === true,
      op: opOf(name, resolved, { appId: scope.appId, where, schemes: scope.schemes }),
    });
  }
}

async function runFlow(scope: Scope, raw: unknown, where: string, line: number): Promise<void> {
  const spec = isRaw(raw) ? raw : { file: raw };
  if (spec['when'] !== undefined) {
    throw new FlowError(`${where}: runFlow's when (a condition) is not supported by droidbus`);
  }
  refuseUnknown(spec, new Set(['file', 'env', 'commands']), where, 'runFlow');
  if (scope.depth >= MAX_DEPTH) {
    throw new FlowError(`${where}: runFlow nests more than ${MAX_DEPTH} deep`);
  }
  const env = defineAll(envOf(spec['env'], where), scope.env, scope.variables, where);
  if (Array.isArray(spec['commands'])) {
    await expand(
      { ...scope, env, depth: scope.depth + 1 },
      // Commands given in place have no lines of their own: they are runFlow's.
      spec['commands'].map((value) => ({ value, line })),
    );
    return;
  }
  const file = str(spec['file'], where, 'file');
  const read = await scope.read(path.join(path.dirname(scope.stack.at(-1)!), file));
  if (scope.stack.includes(read.path)) {
    throw new FlowError(`${where}: ${file} runs itself (a runFlow loop)`);
  }
  const { config, items } = sections(read.text, file);
  // The sub-flow's own env wins over what its parent passes down (Maestro's precedence).
  const own = defineAll(envOf(config['env'], file), env, scope.variables, file);
  // Each file's commands act on its own config's app (YamlCommandReader reads every file with its
  // appId): a sub-flow's bare launchApp launches the app it names, not its parent's.
  const written = config['appId'] ?? config['url'];
  const appId =
    typeof written === 'string' && written !== '' ? filled(written, own, scope.variables, file) : scope.appId;
  await expand(
    { ...scope, appId, env: own, file, depth: scope.depth + 1, stack: [...scope.stack, read.path] },
    items,
  );
}

/**
 * Reads a flow and every flow it runs into the operations droidbus will perform, or throws
 * FlowError naming the first thing it cannot run (file:line). `env` is the run's variables: they
 * win over a flow's own env (its defaults). `schemes`: the URI schemes the app declares, which
 * openLink may open besides http(s).
 */
export async function loadFlow(
  text: string,
  name: string,
  read: ReadFlowFile,
  env: Record<string, string> = {},
  schemes: readonly string[] = [],
): Promise<Flow> {
  const { config, items } = sections(text, name);
  const written = config['appId'] ?? config['url'];
  if (typeof written !== 'string' || written === '') {
    throw new FlowError(`${name}: the config section needs appId (the app's package)`);
  }
  const variables = new Set<string>();
  // As Maestro's TestRunner orders them: the run's variables (`-e`) are defined first, then the
  // flow's env, whose values may use them and which wins over them (`USER: ${USER}` passes one on).
  const run = defineAll(
    Object.entries(env),
    new Map([['MAESTRO_FILENAME', path.basename(name).replace(/\.ya?ml$/i, '')]]),
    new Set(),
    'the run env',
  );
  const vars = defineAll(envOf(config['env'], name), run, variables, name);
  const appId = filled(written, vars, variables, name);
  const scope: Scope = {
    appId,
    env: vars,
    file: name,
    depth: 0,
    read,
    out: [],
    variables,
    stack: [name],
    schemes,
  };
  await expand(scope, items);
  return {
    appId,
    name: typeof config['name'] === 'string' ? config['name'] : null,
    commands: scope.out,
    variables: [...scope.variables],
  };
}
