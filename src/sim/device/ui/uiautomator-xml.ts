import { F, node, type ViewNode } from './view.js';

const XML_HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>";

/** Attribute escaping as Android's XmlSerializer does it (newlines become character references). */
export function escapeAttr(s: string): string {
  let out = '';
  for (const ch of s) {
    switch (ch) {
      case '&':
        out += '&amp;';
        break;
      case '<':
        out += '&lt;';
        break;
      case '>':
        out += '&gt;';
        break;
      case '"':
        out += '&quot;';
        break;
      case '\n':
        out += '&#10;';
        break;
      case '\r':
        out += '&#13;';
        break;
      case '\t':
        out += '&#9;';
        break;
      default: {
        const code = ch.codePointAt(0) ?? 0;
        // uiautomator replaces characters XML cannot carry with '?'.
        out += code < 0x20 || code === 0xfffe || code === 0xffff ? '?' : ch;
      }
    }
  }
  return out;
}

function bool(flags: number, bit: number): string {
  return (flags & bit) !== 0 ? 'true' : 'false';
}

/** A container that `--compressed` leaves out (not important for accessibility). */
function unimportant(n: ViewNode): boolean {
  return (
    n.text === '' &&
    n.desc === '' &&
    (n.flags & (F.CLICKABLE | F.CHECKABLE | F.SCROLLABLE | F.LONG_CLICKABLE | F.FOCUSABLE | F.EDITABLE)) ===
      0 &&
    n.children.length > 0 &&
    /(Layout|ViewGroup)$/.test(n.cls)
  );
}

function serializeNode(n: ViewNode, index: number, compressed: boolean, out: string[]): void {
  out.push(
    `<node index="${index}" text="${escapeAttr(n.text)}" resource-id="${escapeAttr(n.id)}" class="${escapeAttr(n.cls)}" package="${escapeAttr(n.pkg)}" content-desc="${escapeAttr(n.desc)}" checkable="${bool(n.flags, F.CHECKABLE)}" checked="${bool(n.flags, F.CHECKED)}" clickable="${bool(n.flags, F.CLICKABLE)}" enabled="${bool(n.flags, F.ENABLED)}" focusable="${bool(n.flags, F.FOCUSABLE)}" focused="${bool(n.flags, F.FOCUSED)}" scrollable="${bool(n.flags, F.SCROLLABLE)}" long-clickable="${bool(n.flags, F.LONG_CLICKABLE)}" password="${bool(n.flags, F.PASSWORD)}" selected="${bool(n.flags, F.SELECTED)}" bounds="[${n.bounds[0]},${n.bounds[1]}][${n.bounds[2]},${n.bounds[3]}]"`,
  );
  const kids = compressed ? flatten(n.children) : n.children;
  if (kids.length === 0) {
    out.push(' />');
    return;
  }
  out.push('>');
  kids.forEach((c, i) => serializeNode(c, i, compressed, out));
  out.push('</node>');
}

function flatten(children: ViewNode[]): ViewNode[] {
  const out: ViewNode[] = [];
  for (const c of children) {
    if (unimportant(c)) {
      out.push(...flatten(c.children));
    } else {
      out.push(c);
    }
  }
  return out;
}

/** The XML `uiautomator dump` writes: one line, no trailing newline. */
export function serializeHierarchy(root: ViewNode, rotation: number, compressed = false): string {
  const out = [XML_HEADER, `<hierarchy rotation="${rotation}">`];
  serializeNode(root, 0, compressed, out);
  out.push('</hierarchy>');
  return out.join('');
}

function unescapeAttr(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (m, e: string) => {
    switch (e) {
      case 'amp':
        return '&';
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      default:
        return String.fromCodePoint(
          e.startsWith('#x') ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10),
        );
    }
  });
}

/** A screen loaded from a recorded dump: the tree for hit tests and screencap, and its package. */
export interface ParsedHierarchy {
  root: ViewNode;
  rotation: number;
  pkg: string;
  /**
   * `uiautomator`: `<node>` elements, as `uiautomator dump` writes them (AOSP
   * AccessibilityNodeInfoDumper). `page-source`: elements named after their class, as Appium's
   * UiAutomator2 server and its clients' page sources write them (`<android.widget.TextView …>`).
   */
  format: 'uiautomator' | 'page-source';
}

/** Elements of a dump or page source that are not views. */
const CONTAINERS = new Set(['hierarchy', 'displays', 'display', 'window', 'windows']);

/**
 * Reads a recorded uiautomator dump or a UiAutomator2 page source leniently (text before the XML,
 * several windows, unescaped ampersands). Throws when it holds no view at all.
 */
export function parseHierarchy(xml: string): ParsedHierarchy {
  const rotation = Number(/<hierarchy[^>]*rotation="(\d)"/.exec(xml)?.[1] ?? '0');
  const top = node('android.widget.FrameLayout', '', [0, 0, 0, 0], { children: [] });
  const stack: ViewNode[] = [top];
  let pageSource = false;
  const tagRe = /<(\/?)([A-Za-z_][\w.:-]*)((?:[^>"]|"[^"]*")*?)(\/?)>/g;
  for (let m = tagRe.exec(xml); m !== null; m = tagRe.exec(xml)) {
    const element = m[2] as string;
    if (CONTAINERS.has(element)) {
      continue;
    }
    if (element !== 'node') {
      pageSource = true;
    }
    if (m[1] === '/') {
      if (stack.length > 1) {
        stack.pop();
      }
      continue;
    }
    const attrs = new Map<string, string>();
    for (const a of (m[3] ?? '').matchAll(/([\w:-]+)="([^"]*)"/g)) {
      attrs.set(a[1] as string, unescapeAttr(a[2] as string));
    }
    const b = /\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]/.exec(attrs.get('bounds') ?? '');
    let flags = 0;
    const flag = (name: string, bit: number): void => {
      if (attrs.get(name) === 'true') {
        flags |= bit;
      }
    };
    flag('checkable', F.CHECKABLE);
    flag('checked', F.CHECKED);
    flag('clickable', F.CLICKABLE);
    flag('enabled', F.ENABLED);
    flag('focusable', F.FOCUSABLE);
    flag('focused', F.FOCUSED);
    flag('scrollable', F.SCROLLABLE);
    flag('long-clickable', F.LONG_CLICKABLE);
    flag('password', F.PASSWORD);
    flag('selected', F.SELECTED);
    const cls = attrs.get('class') ?? (element === 'node' ? '' : element);
    if (/EditText$/.test(cls)) {
      flags |= F.EDITABLE;
    }
    const n = node(
      cls,
      attrs.get('package') ?? '',
      b === null ? [0, 0, 0, 0] : [Number(b[1]), Number(b[2]), Number(b[3]), Number(b[4])],
      {
        id: attrs.get('resource-id') ?? '',
        text: attrs.get('text') ?? '',
        desc: attrs.get('content-desc') ?? '',
        flags,
      },
    );
    (stack[stack.length - 1] as ViewNode).children.push(n);
    if (m[4] !== '/') {
      stack.push(n);
    }
  }
  const first = top.children[0];
  if (first === undefined) {
    throw new Error('no view element in the file');
  }
  const root = top.children.length === 1 ? first : { ...top, pkg: first.pkg, bounds: first.bounds };
  return { root, rotation, pkg: first.pkg, format: pageSource ? 'page-source' : 'uiautomator' };
}
