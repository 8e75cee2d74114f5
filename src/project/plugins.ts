/**
 * Which Gradle plugins a build file applies: `plugins { id(…) / id '…' / alias(libs.plugins.…) /
 * kotlin("android") }`, `apply plugin: '…'`, `apply(plugin = "…")`, and the Android Gradle Plugin
 * version a root build file declares.
 */
import type { ScriptNode, Token } from './gradle-script-reader.js';
import { blocksNamed, dottedName, readStatement } from './script-statements.js';

export interface PluginUse {
  /** The plugin id, or null for a version-catalog alias not resolved yet. */
  id: string | null;
  /** `libs.plugins.android.application` for `alias(libs.plugins.android.application)`. */
  alias?: string;
  /** False for `apply false` (declared for subprojects, not applied here). */
  applied: boolean;
  version?: string;
}

const AGP_IDS = new Set([
  'com.android.application',
  'com.android.library',
  'com.android.test',
  'com.android.dynamic-feature',
]);

function hasApplyFalse(tokens: Token[]): boolean {
  for (let i = 0; i + 1 < tokens.length; i++) {
    const a = tokens[i] as Token;
    const b = tokens[i + 1] as Token;
    if (a.kind === 'ident' && a.text === 'apply' && b.kind === 'ident' && b.text === 'false') {
      return true;
    }
  }
  return false;
}

function versionQualifier(tokens: Token[]): string | undefined {
  for (let i = 0; i + 1 < tokens.length; i++) {
    const a = tokens[i] as Token;
    if (a.kind === 'ident' && a.text === 'version') {
      const b = tokens[i + 1];
      const v = b?.kind === 'punct' && b.text === '(' ? tokens[i + 2] : b;
      if (v?.kind === 'string' && !v.interpolated) {
        return v.text;
      }
    }
  }
  return undefined;
}

function fromPluginsBlock(nodes: ScriptNode[]): PluginUse[] {
  const out: PluginUse[] = [];
  for (const node of nodes) {
    if (node.body !== null) {
      continue;
    }
    const st = readStatement(node.tokens);
    const arg = st?.args[0];
    if (!st || !arg) {
      continue;
    }
    const applied = !hasApplyFalse(node.tokens);
    const version = versionQualifier(node.tokens);
    const first = arg[0];
    if (st.key === 'id' && first?.kind === 'string' && !first.interpolated) {
      out.push({ id: first.text, applied, ...(version ? { version } : {}) });
    } else if (st.key === 'kotlin' && first?.kind === 'string') {
      out.push({ id: `org.jetbrains.kotlin.${first.text}`, applied, ...(version ? { version } : {}) });
    } else if (st.key === 'alias') {
      const name = dottedName(arg);
      if (name) {
        out.push({ id: null, alias: name.name, applied });
      }
    }
  }
  return out;
}

/** `apply plugin: 'x'` (Groovy) and `apply(plugin = "x")` (Kotlin) at the top level or inside `if` blocks. */
function fromApplyStatements(nodes: ScriptNode[], out: PluginUse[]): void {
  for (const node of nodes) {
    if (node.body !== null) {
      const head = node.tokens[0];
      if (head?.kind === 'ident' && (head.text === 'if' || head.text === 'else')) {
        fromApplyStatements(node.body, out);
      }
      continue;
    }
    const st = readStatement(node.tokens);
    if (!st) {
      continue;
    }
    if (st.key === 'apply plugin') {
      const v = st.args[0]?.[0];
      if (v?.kind === 'string' && !v.interpolated) {
        out.push({ id: v.text, applied: true });
      }
    } else if (st.key === 'apply') {
      const arg = st.args[0] ?? [];
      const [k, eq, v] = arg;
      if (
        k?.kind === 'ident' &&
        k.text === 'plugin' &&
        eq?.text === '=' &&
        v?.kind === 'string' &&
        !v.interpolated
      ) {
        out.push({ id: v.text, applied: true });
      }
    }
  }
}

/** The AGP version from `classpath 'com.android.tools.build:gradle:X'` in a `buildscript` block. */
function classpathAgp(nodes: ScriptNode[]): string | null {
  for (const bs of blocksNamed(nodes, 'buildscript')) {
    for (const deps of blocksNamed(bs.body ?? [], 'dependencies')) {
      for (const node of deps.body ?? []) {
        const st = readStatement(node.tokens);
        const v = st?.key === 'classpath' ? st.args[0]?.[0] : undefined;
        const m =
          v?.kind === 'string' && !v.interpolated
            ? /^com\.android\.tools\.build:gradle:([\w.-]+)$/.exec(v.text)
            : null;
        if (m) {
          return m[1] ?? null;
        }
      }
    }
  }
  return null;
}

/** Reads the plugins a script applies and the AGP version it declares. */
export function readPlugins(tree: ScriptNode[]): { plugins: PluginUse[]; agpVersion: string | null } {
  const plugins = blocksNamed(tree, 'plugins').flatMap((b) => fromPluginsBlock(b.body ?? []));
  fromApplyStatements(tree, plugins);
  let agpVersion = classpathAgp(tree);
  for (const p of plugins) {
    if (agpVersion === null && p.id !== null && AGP_IDS.has(p.id) && p.version) {
      agpVersion = p.version;
    }
  }
  return { plugins, agpVersion };
}
