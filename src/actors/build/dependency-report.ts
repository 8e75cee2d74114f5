/**
 * Resolved dependency versions from the trees Gradle prints (`dependencies`, `androidDependencies`,
 * or any task whose output includes a `… - Resolved configuration …` report): each configuration's
 * modules with the version Gradle resolved (`a:b:1.0 -> 1.2` resolves to 1.2). A debug session's
 * comparison names what changed between two builds; an ordinary assemble prints no tree, and then
 * nothing is recorded.
 */

/** Modules kept per configuration, and configurations kept per build. */
const MAX_MODULES = 2_000;
const MAX_CONFIGURATIONS = 64;

/** One configuration's resolved modules: `group:name` → version. */
export interface ResolvedConfiguration {
  name: string;
  modules: Map<string, string>;
  truncated: boolean;
}

/** What a build record keeps: one configuration's resolved versions. */
export interface ResolvedDependencies {
  configuration: string;
  /** `group:name` → the resolved version, sorted by module. */
  versions: Record<string, string>;
  count: number;
  truncated: boolean;
}

const HEADER = /^([A-Za-z_][\w-]*)(?: - .*)?$/;
const TREE_LINE = /^[|\s]*[+\\]--- (.+)$/;
const MARKERS = / \((?:\*|c|n)\)$| FAILED$/;

/** `g:n:1.0`, `g:n:1.0 -> 1.2`, `g:n:{strictly 1.0} -> 1.0`, `g:n -> 1.2`; null for `project :x` and unresolved ones. */
export function parseTreeEntry(text: string): { module: string; version: string } | null {
  if (text.startsWith('project ') || text.endsWith(' (n)') || text.endsWith(' FAILED')) {
    return null;
  }
  const body = text.replace(MARKERS, '').trim();
  const arrow = body.indexOf(' -> ');
  const left = arrow >= 0 ? body.slice(0, arrow) : body;
  const right = arrow >= 0 ? body.slice(arrow + 4).trim() : null;
  const parts = left.split(':');
  if (parts.length < 2 || parts[0] === '' || parts[1] === '') {
    return null;
  }
  const module = `${parts[0]}:${parts[1]}`;
  const requested = parts.length >= 3 ? parts.slice(2).join(':') : null;
  const version = right ?? requested;
  if (version === null || version === '' || version.startsWith('{') || /\s/.test(version)) {
    return null;
  }
  return { module, version };
}

/** Follows a Gradle output line by line and collects the resolved configurations it prints. */
export class DependencyReport {
  private readonly configs: ResolvedConfiguration[] = [];
  private current: ResolvedConfiguration | null = null;
  private header: string | null = null;

  /** Feeds one output line. */
  note(line: string): void {
    if (line.length === 0) {
      this.current = null;
      this.header = null;
      return;
    }
    const first = line.charCodeAt(0);
    // Tree lines start with `+`, `|`, `\` or spaces; anything else may name a configuration.
    if (first === 43 /* + */ || first === 124 /* | */ || first === 92 /* \ */ || first === 32) {
      if (this.current === null && this.header === null) {
        return;
      }
      const m = TREE_LINE.exec(line);
      if (!m) {
        return;
      }
      if (this.current === null) {
        if (this.configs.length >= MAX_CONFIGURATIONS) {
          return;
        }
        this.current = { name: this.header!, modules: new Map(), truncated: false };
        this.configs.push(this.current);
      }
      const entry = parseTreeEntry(m[1] as string);
      if (entry === null) {
        return;
      }
      const c = this.current;
      if (!c.modules.has(entry.module)) {
        if (c.modules.size >= MAX_MODULES) {
          c.truncated = true;
          return;
        }
        c.modules.set(entry.module, entry.version);
      }
      return;
    }
    this.current = null;
    const h = HEADER.exec(line);
    this.header = h ? (h[1] as string) : null;
  }

  /** Every configuration with at least one module, in output order. */
  configurations(): ResolvedConfiguration[] {
    return this.configs.filter((c) => c.modules.size > 0);
  }
}

/**
 * The configuration that says what the app runs with: the variant's `…RuntimeClasspath`, else the
 * first runtime classpath that is not a test's, else the first one printed. Null when none was.
 */
export function pickResolvedDependencies(
  all: readonly ResolvedConfiguration[],
  variant: string | null,
): ResolvedDependencies | null {
  const isTest = (n: string): boolean => /(AndroidTest|UnitTest|TestFixtures)/.test(n) || /^test/.test(n);
  const chosen =
    (variant !== null ? all.find((c) => c.name === `${variant}RuntimeClasspath`) : undefined) ??
    all.find((c) => c.name.endsWith('RuntimeClasspath') && !isTest(c.name)) ??
    all.find((c) => c.name.endsWith('RuntimeClasspath')) ??
    all[0];
  if (chosen === undefined) {
    return null;
  }
  const versions: Record<string, string> = {};
  for (const key of [...chosen.modules.keys()].sort()) {
    versions[key] = chosen.modules.get(key)!;
  }
  return { configuration: chosen.name, versions, count: chosen.modules.size, truncated: chosen.truncated };
}
