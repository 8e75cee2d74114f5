/**
 * The facts droidbus needs from a module's `src/main/AndroidManifest.xml`: the `package` attribute
 * (the namespace of projects older than AGP 7), the default launcher activity, and the URI schemes
 * its components' intent filters declare (`<data android:scheme="myapp"/>`: the links a flow's
 * openLink may open in the app).
 */
import { XMLParser } from 'fast-xml-parser';

export interface ManifestInfo {
  package: string | null;
  /** The activity (or activity-alias) with MAIN + LAUNCHER, as written (`.MainActivity`). */
  launcherActivity: string | null;
  /** Schemes of the intent filters of its activities and aliases, lower-cased, each once. */
  schemes: string[];
}

type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: false,
  isArray: (name) =>
    ['activity', 'activity-alias', 'intent-filter', 'action', 'category', 'data'].includes(name),
  processEntities: false,
});

function list(v: unknown): XmlNode[] {
  if (Array.isArray(v)) {
    return v.filter((x): x is XmlNode => typeof x === 'object' && x !== null);
  }
  return typeof v === 'object' && v !== null ? [v as XmlNode] : [];
}

function attr(node: XmlNode, name: string): string | null {
  const v = node[`@android:${name}`];
  return typeof v === 'string' ? v : null;
}

function isLauncher(component: XmlNode): boolean {
  if (attr(component, 'enabled') === 'false') {
    return false;
  }
  return list(component['intent-filter']).some((filter) => {
    const actions = list(filter['action']).map((a) => attr(a, 'name'));
    const categories = list(filter['category']).map((c) => attr(c, 'name'));
    return (
      actions.includes('android.intent.action.MAIN') &&
      (categories.includes('android.intent.category.LAUNCHER') ||
        categories.includes('android.intent.category.LEANBACK_LAUNCHER'))
    );
  });
}

/** Reads the package and the launcher activity; a malformed manifest yields nulls, never an exception. */
export function parseManifest(xml: string): ManifestInfo {
  let doc: XmlNode;
  try {
    doc = parser.parse(xml) as XmlNode;
  } catch {
    return { package: null, launcherActivity: null, schemes: [] };
  }
  const manifest = list(doc['manifest'])[0];
  if (!manifest) {
    return { package: null, launcherActivity: null, schemes: [] };
  }
  const pkg = typeof manifest['@package'] === 'string' ? (manifest['@package'] as string) : null;
  const app = list(manifest['application'])[0];
  let launcher: string | null = null;
  const schemes = new Set<string>();
  if (app) {
    for (const component of [...list(app['activity']), ...list(app['activity-alias'])]) {
      if (launcher === null && isLauncher(component)) {
        launcher = attr(component, 'name');
      }
      for (const filter of list(component['intent-filter'])) {
        for (const data of list(filter['data'])) {
          const scheme = attr(data, 'scheme');
          // A placeholder (`${appScheme}`) is filled by the build: not a scheme read here.
          if (scheme !== null && /^[A-Za-z][A-Za-z0-9+.-]*$/.test(scheme)) {
            schemes.add(scheme.toLowerCase());
          }
        }
      }
    }
  }
  return { package: pkg, launcherActivity: launcher, schemes: [...schemes] };
}

/** Resolves a component name against the namespace: `.Main` and `Main` become `ns.Main`. */
export function qualifyComponent(name: string, namespace: string | null): string | null {
  if (name.startsWith('.')) {
    return namespace ? namespace + name : null;
  }
  if (!name.includes('.')) {
    return namespace ? `${namespace}.${name}` : null;
  }
  return name;
}
