/**
 * The two facts droidbus needs from a module's `src/main/AndroidManifest.xml`: the `package`
 * attribute (the namespace of projects older than AGP 7) and the default launcher activity.
 */
import { XMLParser } from 'fast-xml-parser';

export interface ManifestInfo {
  package: string | null;
  /** The activity (or activity-alias) with MAIN + LAUNCHER, as written (`.MainActivity`). */
  launcherActivity: string | null;
}

type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: false,
  isArray: (name) => ['activity', 'activity-alias', 'intent-filter', 'action', 'category'].includes(name),
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
    return { package: null, launcherActivity: null };
  }
  const manifest = list(doc['manifest'])[0];
  if (!manifest) {
    return { package: null, launcherActivity: null };
  }
  const pkg = typeof manifest['@package'] === 'string' ? (manifest['@package'] as string) : null;
  const app = list(manifest['application'])[0];
  let launcher: string | null = null;
  if (app) {
    for (const component of [...list(app['activity']), ...list(app['activity-alias'])]) {
      if (isLauncher(component)) {
        launcher = attr(component, 'name');
        break;
      }
    }
  }
  return { package: pkg, launcherActivity: launcher };
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
