/**
 * Reads the sanitizer's output (ui-xml-sanitize.ts: well-formed, attribute values in double quotes
 * holding only the five XML entities and numeric references, no declaration, comment or DOCTYPE) into
 * the shape the parser walks: an element is an object of `@_name` attribute values and, per child tag,
 * the child (or an array when the tag repeats; `node`, `window` and `display` always arrays). Text and
 * CDATA are skipped: UI Automator writes none worth keeping.
 *
 * One pass with indexOf and slices — a general XML parser spends most of a 1 MB dump's time on what
 * these documents never hold.
 */
export type XmlElement = Record<string, unknown>;

const ALWAYS_ARRAYS = new Set(['node', 'window', 'display']);
const ENTITY = /&(?:(amp)|(lt)|(gt)|(quot)|(apos)|#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6}));/g;

function decode(value: string): string {
  if (!value.includes('&')) {
    return value;
  }
  return value.replace(ENTITY, (all, amp, lt, gt, quot, apos, dec: string, hex: string) => {
    if (amp) {
      return '&';
    }
    if (lt) {
      return '<';
    }
    if (gt) {
      return '>';
    }
    if (quot) {
      return '"';
    }
    if (apos) {
      return "'";
    }
    const cp = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
  });
}

function attach(parent: XmlElement, name: string, child: XmlElement): void {
  const existing = parent[name];
  if (existing === undefined) {
    parent[name] = ALWAYS_ARRAYS.has(name) ? [child] : child;
  } else if (Array.isArray(existing)) {
    existing.push(child);
  } else {
    parent[name] = [existing, child];
  }
}

/** Whitespace as XML has it between attributes. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The document as nested objects (see the module comment). */
export function readUiXml(xml: string): XmlElement {
  const doc: XmlElement = {};
  const stack: XmlElement[] = [doc];
  const n = xml.length;
  let i = 0;
  for (;;) {
    const lt = xml.indexOf('<', i);
    if (lt < 0 || lt + 1 >= n) {
      return doc;
    }
    const c = xml.charCodeAt(lt + 1);
    if (c === 0x2f /* / */) {
      if (stack.length > 1) {
        stack.pop();
      }
      const gt = xml.indexOf('>', lt);
      if (gt < 0) {
        return doc;
      }
      i = gt + 1;
      continue;
    }
    if (c === 0x21 /* ! */ || c === 0x3f /* ? */) {
      const close = xml.startsWith('<![CDATA[', lt) ? ']]>' : xml.startsWith('<!--', lt) ? '-->' : '>';
      const end = xml.indexOf(close, lt + 2);
      if (end < 0) {
        return doc;
      }
      i = end + close.length;
      continue;
    }
    let j = lt + 1;
    while (j < n) {
      const k = xml.charCodeAt(j);
      if (isSpace(k) || k === 0x2f || k === 0x3e) {
        break;
      }
      j++;
    }
    const name = xml.slice(lt + 1, j);
    const el: XmlElement = {};
    let selfClosing = false;
    for (;;) {
      while (j < n && isSpace(xml.charCodeAt(j))) {
        j++;
      }
      const k = xml.charCodeAt(j);
      if (k === 0x3e /* > */) {
        j++;
        break;
      }
      if (k === 0x2f /* / */) {
        selfClosing = true;
        const gt = xml.indexOf('>', j);
        j = gt < 0 ? n : gt + 1;
        break;
      }
      if (j >= n) {
        break;
      }
      const eq = xml.indexOf('=', j);
      let open = eq + 1;
      while (open > 0 && open < n && isSpace(xml.charCodeAt(open))) {
        open++;
      }
      const quote = xml[open];
      const end = eq < 0 || (quote !== '"' && quote !== "'") ? -1 : xml.indexOf(quote, open + 1);
      if (end < 0) {
        return doc;
      }
      el[`@_${xml.slice(j, eq).trim()}`] = decode(xml.slice(open + 1, end));
      j = end + 1;
    }
    attach(stack[stack.length - 1] as XmlElement, name, el);
    if (!selfClosing) {
      stack.push(el);
    }
    i = j;
  }
}
