/**
 * Reads a Gradle settings file (`settings.gradle.kts` or `settings.gradle`): the included project
 * paths, `rootProject.name`, and `project(":x").projectDir = file("…")` relocations.
 */
import { readScript, type ScriptDialect, type ScriptNode, type Token } from './gradle-script-reader.js';
import { evaluate, readStatement } from './script-statements.js';

export interface SettingsInfo {
  rootProjectName: string | null;
  /** Gradle project paths in declaration order, each starting with `:`. */
  includes: string[];
  /** Directories relative to the root (`/`-separated) for relocated projects; null when unreadable. */
  projectDirs: Map<string, string | null>;
}

function normalisePath(p: string): string | null {
  const trimmed = p.trim();
  if (trimmed === '' || /\s/.test(trimmed)) {
    return null;
  }
  return trimmed.startsWith(':') ? trimmed : `:${trimmed}`;
}

function isPunct(t: Token | undefined, text: string): boolean {
  return t !== undefined && t.kind === 'punct' && t.text === text;
}

/** `project(':x').projectDir = <expr>`: the project path and the directory the expression names. */
function relocation(tokens: Token[]): [string, string | null] | null {
  const [p, open, name, close, dot, prop, eq] = tokens;
  if (
    p?.kind !== 'ident' ||
    p.text !== 'project' ||
    !isPunct(open, '(') ||
    name?.kind !== 'string' ||
    !isPunct(close, ')') ||
    !isPunct(dot, '.') ||
    prop?.kind !== 'ident' ||
    prop.text !== 'projectDir' ||
    !isPunct(eq, '=')
  ) {
    return null;
  }
  const path = normalisePath(name.text);
  if (path === null) {
    return null;
  }
  const expr = tokens.slice(7);
  let i = 0;
  if (expr[i]?.kind === 'ident' && expr[i]?.text === 'new') {
    i++;
  }
  const fn = expr[i];
  const strings = expr.filter((t) => t.kind === 'string');
  const idents = expr.filter((t) => t.kind === 'ident').map((t) => t.text);
  const lastString = strings[strings.length - 1];
  let dir: string | null = null;
  if (
    fn?.kind === 'ident' &&
    (fn.text === 'file' || fn.text === 'File') &&
    lastString &&
    !lastString.interpolated
  ) {
    const base = idents.filter((x) => x !== 'new' && x !== 'file' && x !== 'File');
    // `File(rootDir, "x")` and `file("x")` are relative to the root; anything else is not knowable.
    if (base.every((b) => b === 'rootDir' || b === 'settingsDir') && strings.length === 1) {
      dir = lastString.text.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
    }
  }
  return [path, dir];
}

function walk(nodes: ScriptNode[], info: SettingsInfo): void {
  for (const node of nodes) {
    if (node.body !== null) {
      const head = node.tokens[0];
      if (head?.kind === 'ident' && (head.text === 'if' || head.text === 'else')) {
        walk(node.body, info);
      }
      continue;
    }
    const moved = relocation(node.tokens);
    if (moved) {
      info.projectDirs.set(moved[0], moved[1]);
      continue;
    }
    const st = readStatement(node.tokens);
    if (!st) {
      continue;
    }
    if (st.key === 'include') {
      for (const arg of st.args) {
        const v = evaluate(arg);
        const names =
          typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];
        for (const n of names as string[]) {
          const path = normalisePath(n);
          if (path && !info.includes.includes(path)) {
            info.includes.push(path);
          }
        }
      }
    } else if (st.key === 'rootProject.name' && st.op === 'set') {
      const v = evaluate(st.args[0] ?? []);
      info.rootProjectName = typeof v === 'string' ? v : null;
    }
  }
}

/** Reads the included projects of a settings script. */
export function parseSettings(text: string, dialect: ScriptDialect): SettingsInfo {
  const info: SettingsInfo = { rootProjectName: null, includes: [], projectDirs: new Map() };
  walk(readScript(text, dialect), info);
  return info;
}

/** The directory Gradle uses for a project path by default: `:feature:foo` → `feature/foo`. */
export function defaultProjectDir(path: string): string {
  return path
    .split(':')
    .filter((s) => s !== '')
    .join('/');
}
