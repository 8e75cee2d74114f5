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
