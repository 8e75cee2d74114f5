/**
 * The simulated UiAutomator2 server's page source (helper-server.ts), as appium-uiautomator2-server
 * 10.6.2 writes it (core/AccessibilityNodeInfoDumper.java: toStream 230–243, serializeUiElement 197):
 * one snapshot of the window roots (`getCachedWindowRoots()`) under a root element that gets the
 * display's rotation, width and height (166); each element is named after its class (toXmlNodeName
 * 171–189: `$ @ # &` become dots, repeated dots collapse, leading and trailing dots go, blank names
 * become android.view.View), attributes with no value are left out, and the output is indented. No
 * element marks a window: with `enableMultiWindows` every window's root is a child of `<hierarchy>`,
 * without it only the active window's. The element form matches the real page source under
 * tests/fixtures/ui/appium-classengage-login.xml.
 */
import { escapeAttr } from './ui/uiautomator-xml.js';
import { F, type ViewNode } from './ui/view.js';

function bool(flags: number, bit: number): string {
  return (flags & bit) !== 0 ? 'true' : 'false';
}

/** A node's attributes as the page source writes them, in its order (absent ones left out). */
export function nodeAttributes(n: ViewNode, index: number): [string, string][] {
  const cls = n.cls === '' ? 'android.view.View' : n.cls;
  return [
    ['index', String(index)],
    ['package', n.pkg],
    ['class', cls],
    ['text', n.text],
    ...(n.id !== '' ? [['resource-id', n.id] as [string, string]] : []),
    ...(n.desc !== '' ? [['content-desc', n.desc] as [string, string]] : []),
    ['checkable', bool(n.flags, F.CHECKABLE)],
    ['checked', bool(n.flags, F.CHECKED)],
    ['clickable', bool(n.flags, F.CLICKABLE)],
    ['enabled', bool(n.flags, F.ENABLED)],
    ['focusable', bool(n.flags, F.FOCUSABLE)],
    ['focused', bool(n.flags, F.FOCUSED)],
    ['long-clickable', bool(n.flags, F.LONG_CLICKABLE)],
    ['password', bool(n.flags, F.PASSWORD)],
    ['scrollable', bool(n.flags, F.SCROLLABLE)],
    ['selected', bool(n.flags, F.SELECTED)],
    ['bounds', `[${n.bounds[0]},${n.bounds[1]}][${n.bounds[2]},${n.bounds[3]}]`],
    ['displayed', 'true'],
  ];
}

/** The element name the page source gives a node's class (toXmlNodeName). */
export function nodeTag(n: ViewNode): string {
  const cls = n.cls === '' ? 'android.view.View' : n.cls;
  return (
    cls
      .replace(/[$@#&]/g, '.')
      .replace(/\.+/g, '.')
      .replace(/(^\.|\.$)/g, '') || 'android.view.View'
  );
}

function element(n: ViewNode, index: number, out: string[], indent: string): void {
  const attrs = nodeAttributes(n, index)
    .map(([k, v]) => `${k}="${escapeAttr(v)}"`)
    .join(' ');
  const tag = nodeTag(n);
  if (n.children.length === 0) {
    out.push(`${indent}<${tag} ${attrs} />`);
    return;
  }
  out.push(`${indent}<${tag} ${attrs}>`);
  n.children.forEach((c, i) => element(c, i, out, indent + '  '));
  out.push(`${indent}</${tag}>`);
}

/** The whole document for `windows` (each a window's root) on a display. */
export function pageSourceXml(
  windows: readonly ViewNode[],
  display: { rotation: number; width: number; height: number },
): string {
  const out = [
    "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>",
    `<hierarchy index="0" class="hierarchy" rotation="${display.rotation}" width="${display.width}" height="${display.height}">`,
  ];
  windows.forEach((w, i) => element(w, i, out, '  '));
  out.push('</hierarchy>');
  return out.join('\r\n');
}
