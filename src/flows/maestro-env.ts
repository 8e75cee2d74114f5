/**
 * `${…}` in a Maestro flow's strings. Maestro evaluates what is between the braces as JavaScript
 * (maestro-orchestra-models `Env.evaluateScripts`, v1.39.10: pattern `(?<!\\)\$\{([^$]*)}`, an empty
 * script gives "", a backslash before `${` keeps it literal and is dropped). droidbus runs no
 * JavaScript: a name is looked up among the flow's variables, anything else is refused before the
 * flow runs — as is a name that has no value, so that a missing password fails by name, not by a
 * literal "undefined" typed into a field.
 */

export class FlowEnvError extends Error {}

const SCRIPT = /(\\?)\$\{([^$]*)\}/g;
const NAME = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*$/;

/** The variables a string names (`${NAME}`), in order, escapes left out. */
export function namesIn(value: string): string[] {
  const names: string[] = [];
  for (const m of value.matchAll(SCRIPT)) {
    const name = NAME.exec(m[2]!)?.[1];
    if (m[1] === '' && name !== undefined) {
      names.push(name);
    }
  }
  return names;
}

function scriptError(script: string): FlowEnvError {
  return new FlowEnvError(
    `\${${script.slice(0, 80)}} is JavaScript, which droidbus does not run: only \${NAME} variables (from the flow's env, runFlow's env, or the run's env)`,
  );
}

/**
 * Refuses JavaScript in `${…}` anywhere in a parsed YAML value — every string, keys included, the
 * config section's appId and env values as much as a command's text — before anything is filled in.
 */
export function refuseScripts(value: unknown): void {
  if (typeof value === 'string') {
    for (const m of value.matchAll(SCRIPT)) {
      if (m[1] === '' && m[2]!.trim() !== '' && !NAME.test(m[2]!)) {
        throw scriptError(m[2]!);
      }
    }
  } else if (Array.isArray(value)) {
    value.forEach(refuseScripts);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      refuseScripts(k);
      refuseScripts(v);
    }
  }
}

/** `value` with its `${NAME}` replaced from `env`; throws FlowEnvError for JavaScript or a name without a value. */
export function substitute(value: string, env: ReadonlyMap<string, string>): string {
  return value.replace(SCRIPT, (whole: string, escape: string, script: string) => {
    if (escape !== '') {
      return whole.slice(1);
    }
    if (script.trim() === '') {
      return '';
    }
    const name = NAME.exec(script)?.[1];
    if (name === undefined) {
      throw scriptError(script);
    }
    const found = env.get(name);
    if (found === undefined) {
      throw new FlowEnvError(`\${${name}} has no value: give it in the run's env (or the flow's env:)`);
    }
    return found;
  });
}

/** Every string in a parsed YAML value substituted (keys stay as written). */
export function substituteAll(value: unknown, env: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') {
    return substitute(value, env);
  }
  if (Array.isArray(value)) {
    return value.map((v) => substituteAll(v, env));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteAll(v, env)]));
  }
  return value;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
};

/**
 * A variable's value as Maestro's default JavaScript engine holds it. RhinoJsEngine.putEnv (v1.39.10)
 * runs `var NAME = '<value>'` after Js.sanitizeJs dropped every line break and put a backslash before
 * each `'`: so a trailing newline (a YAML `|` block's) is gone and JavaScript's string escapes apply —
 * `\\` is one backslash, `\n` a line break, `\x41` an A. A value that JavaScript cannot read so (a
 * backslash at its end, one before a quote, a carriage return) fails there, and is refused here.
 */
export function definedValue(name: string, value: string): string {
  const source = value.replace(/\n/g, '').replace(/'/g, "\\'");
  const refuse = (why: string): FlowEnvError =>
    new FlowEnvError(`the value of ${name} ${why}, which Maestro's JavaScript engine cannot read`);
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "'") {
      throw refuse('has a backslash before a quote');
    }
    if (c === '\r' || c === '\u2028' || c === '\u2029') {
      throw refuse('holds a line terminator');
    }
    if (c !== '\\') {
      out += c;
      continue;
    }
    const d = source[++i];
    if (d === undefined) {
      throw refuse('ends with a backslash');
    }
    const hex =
      d === 'x'
        ? /^[0-9a-fA-F]{2}/.exec(source.slice(i + 1))
        : d === 'u'
          ? /^[0-9a-fA-F]{4}/.exec(source.slice(i + 1))
          : null;
    // Rhino reads legacy octal escapes (`\0` is NUL, `\101` an A), at most \377.
    const octal = /^[0-3][0-7]{0,2}|^[4-7][0-7]?/.exec(source.slice(i));
    if (hex) {
      out += String.fromCharCode(parseInt(hex[0], 16));
      i += hex[0].length;
    } else if (octal) {
      out += String.fromCharCode(parseInt(octal[0], 8));
      i += octal[0].length - 1;
    } else {
      out += SIMPLE_ESCAPES[d] ?? d;
    }
  }
  return out;
}
