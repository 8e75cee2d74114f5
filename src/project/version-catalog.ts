/**
 * The parts of a Gradle version catalog (`gradle/libs.versions.toml`) that name plugins:
 * `[versions]` and `[plugins]`, enough to turn `alias(libs.plugins.android.application)` into
 * `com.android.application`. A small reader for the TOML subset catalogs use.
 */

export interface CatalogPlugin {
  id: string;
  version: string | null;
}

export interface VersionCatalog {
  /** Keyed by the accessor path after `libs.plugins.` with `-`/`_` read as `.` (`android.application`). */
  plugins: Map<string, CatalogPlugin>;
  versions: Map<string, string>;
}

/** Gradle maps `-`, `_` and `.` in catalog keys to the same accessor separator. */
export function normaliseCatalogKey(key: string): string {
  return key.replace(/[-_]/g, '.');
}

function unquote(s: string): string | null {
  const t = s.trim();
  const m = /^"((?:[^"\\]|\\.)*)"$/.exec(t) ?? /^'([^']*)'$/.exec(t);
  return m ? (m[1] as string).replace(/\\(.)/g, '$1') : null;
}

function stripComment(line: string): string {
  let inStr: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inStr) {
      if (c === '\\') {
        i++;
      } else if (c === inStr) {
        inStr = null;
      }
    } else if (c === '"' || c === "'") {
      inStr = c;
    } else if (c === '#') {
      return line.slice(0, i);
    }
  }
  return line;
}

/** Splits `a = "x", b.c = "y"` inside an inline table at commas outside strings. */
function inlineTable(body: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts: string[] = [];
  let cur = '';
  let inStr: string | null = null;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (inStr) {
      if (c === inStr) {
        inStr = null;
      }
    } else if (c === '"' || c === "'") {
      inStr = c;
    } else if (c === ',') {
      parts.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  parts.push(cur);
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq < 0) {
      continue;
    }
    const key = part.slice(0, eq).trim().replace(/\s+/g, '');
    const value = unquote(part.slice(eq + 1));
    if (value !== null) {
      out.set(key, value);
    }
  }
  return out;
}

/** Reads a version catalog's `[versions]` and `[plugins]` tables; unreadable entries are skipped. */
export function parseVersionCatalog(text: string): VersionCatalog {
  const versions = new Map<string, string>();
  const rawPlugins: [string, string][] = [];
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = stripComment(raw).trim();
    if (line === '') {
      continue;
    }
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      section = (header[1] as string).trim();
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) {
      continue;
    }
    const key = line.slice(0, eq).trim().replace(/^"|"$/g, '');
    const value = line.slice(eq + 1).trim();
    if (section === 'versions') {
      const v = unquote(value);
      if (v !== null) {
        versions.set(key, v);
      }
    } else if (section === 'plugins') {
      rawPlugins.push([key, value]);
    }
  }
  const plugins = new Map<string, CatalogPlugin>();
  for (const [key, value] of rawPlugins) {
    const literal = unquote(value);
    if (literal !== null) {
      const [id, version] = literal.split(':');
      if (id) {
        plugins.set(normaliseCatalogKey(key), { id, version: version ?? null });
      }
      continue;
    }
    const m = /^\{(.*)\}$/.exec(value);
    if (!m) {
      continue;
    }
    const table = inlineTable(m[1] as string);
    const id = table.get('id');
    if (!id) {
      continue;
    }
    const ref = table.get('version.ref');
    const version = table.get('version') ?? (ref !== undefined ? (versions.get(ref) ?? null) : null);
    plugins.set(normaliseCatalogKey(key), { id, version });
  }
  return { plugins, versions };
}

/** Resolves `libs.plugins.android.application` through the catalog; null when it is not there. */
export function resolvePluginAlias(catalog: VersionCatalog | null, alias: string): CatalogPlugin | null {
  if (!catalog) {
    return null;
  }
  const m = /^libs\.plugins\.(.+)$/.exec(alias);
  if (!m) {
    return null;
  }
  return catalog.plugins.get(normaliseCatalogKey(m[1] as string)) ?? null;
}
