/**
 * Repairs what real `uiautomator dump` output gets wrong before the strict parse: the tool's own log
 * lines around the XML (`UI hierchary dumped to: /dev/tty` is printed right after `</hierarchy>`
 * when dumping to the terminal; vendor builds print warnings first), bytes that are not UTF-8 or are
 * UTF-16, control characters and lone surrogates, `&` and `<` left unescaped, a tail cut off by a
 * dropped connection, stray end tags, and anything after the root element.
 *
 * The scanner walks the document once, tag by tag. A tag that needs no repair is copied as it is,
 * so a clean dump costs one pass of `indexOf` jumps and no re-serialisation.
 */
import { decodeDumpBytes } from '../../util/dump-decode.js';
import { type UiResult, uiFail } from './ui-types.js';

export interface SanitizedXml {
  /** Well-formed XML: the root element only, without the XML declaration. */
  xml: string;
  /** Name of the root element (`hierarchy`, or `displays` for `uiautomator dump --windows`). */
  root: string;
  /** Short codes of what was repaired, in the order first seen; empty for a clean dump. */
  repairs: string[];
}

/** Root elements UI Automator writes. */
const ROOT_NAMES = ['hierarchy', 'displays'];

/** Characters that need a look inside text and attribute values. */
const SPECIAL = /[&<"\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const SPECIAL_G = /[&<"\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/g;
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6}));/y;
const NAME = /[A-Za-z_][A-Za-z0-9_.:-]*/y;
/**
 * A start tag that needs no repair: double-quoted values free of `&`, `<`, control characters and
 * surrogates. Nearly every tag of a real dump matches, so it is copied without a closer look.
 */
const CLEAN_TAG =
  /<([A-Za-z_][A-Za-z0-9_.:-]*)(?:\s+[^\s="'<>/]+\s*=\s*"[^"&<\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]*")*\s*(\/?)>/y;
const WS = /\s/;

class Repairs {
  readonly list: string[] = [];
  add(code: string): void {
    if (!this.list.includes(code)) {
      this.list.push(code);
    }
  }
}

function isXmlCodePoint(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Escapes and strips what XML forbids in character data or a double-quoted attribute value. */
function cleanChars(value: string, inAttribute: boolean, repairs: Repairs): string {
  if (!SPECIAL.test(value)) {
    return value;
  }
  let out = '';
  let last = 0;
  SPECIAL_G.lastIndex = 0;
  for (let m = SPECIAL_G.exec(value); m !== null; m = SPECIAL_G.exec(value)) {
    const at = m.index;
    const ch = value.charCodeAt(at);
    out += value.slice(last, at);
    last = at + 1;
    if (ch === 0x26 /* & */) {
      ENTITY.lastIndex = at;
      const e = ENTITY.exec(value);
      if (e === null) {
        repairs.add('bare_ampersand');
        out += '&amp;';
        continue;
      }
      const cp = e[1] !== undefined ? 0x20 : parseInt(e[2] ?? e[3] ?? '', e[2] !== undefined ? 10 : 16);
      if (isXmlCodePoint(cp)) {
        out += e[0];
      } else {
        repairs.add('control_chars');
      }
      last = at + e[0].length;
      SPECIAL_G.lastIndex = last;
    } else if (ch === 0x3c /* < */) {
      repairs.add(inAttribute ? 'lt_in_attribute' : 'bare_lt');
      out += '&lt;';
    } else if (ch === 0x22 /* " */) {
      out += inAttribute ? '&quot;' : '"';
    } else if (ch >= 0xd800 && ch <= 0xdbff) {
      const next = value.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += value.slice(at, at + 2);
        last = at + 2;
        SPECIAL_G.lastIndex = last;
      } else {
        repairs.add('lone_surrogate');
        out += '\uFFFD';
      }
    } else if (ch >= 0xdc00 && ch <= 0xdfff) {
      repairs.add('lone_surrogate');
      out += '\uFFFD';
    } else {
      repairs.add('control_chars');
    }
  }
  return out + value.slice(last);
}

/** Finds where the XML starts: the declaration, else the first root element. */
function findStart(s: string): number {
  const decl = s.indexOf('<?xml');
  let best = -1;
  for (const name of ROOT_NAMES) {
    let at = s.indexOf(`<${name}`);
    while (at >= 0) {
      const after = s.charAt(at + name.length + 1);
      if (after === '' || after === '>' || after === '/' || WS.test(after)) {
        break;
      }
      at = s.indexOf(`<${name}`, at + 1);
    }
    if (at >= 0 && (best < 0 || at < best)) {
      best = at;
    }
  }
  if (decl >= 0 && (best < 0 || decl < best)) {
    return decl;
  }
  return best;
}

interface TagScan {
  /** Index just past the tag, or -1 when the input ends inside it. */
  end: number;
  name: string;
  selfClosing: boolean;
  /** The tag as it should be written out. */
  text: string;
}

/** Reads a start tag at `lt` (known to be `<` followed by a name start). */
function scanStartTag(s: string, lt: number, repairs: Repairs): TagScan {
  CLEAN_TAG.lastIndex = lt;
  const clean = CLEAN_TAG.exec(s);
  if (clean !== null) {
    const end = lt + clean[0].length;
    return { end, name: clean[1] ?? '', selfClosing: clean[2] === '/', text: clean[0] };
  }
  NAME.lastIndex = lt + 1;
  const nameMatch = NAME.exec(s);
  const name = nameMatch ? nameMatch[0] : '';
  let i = lt + 1 + name.length;
  const n = s.length;
  let dirty = false;
  const parts: string[] = [`<${name}`];
  for (;;) {
    while (i < n && WS.test(s.charAt(i))) {
      i++;
    }
    if (i >= n) {
      return { end: -1, name, selfClosing: false, text: '' };
    }
    const c = s.charAt(i);
    if (c === '>') {
      const text = dirty ? `${parts.join('')}>` : s.slice(lt, i + 1);
      return { end: i + 1, name, selfClosing: false, text };
    }
    if (c === '/') {
      if (s.charAt(i + 1) === '>') {
        const text = dirty ? `${parts.join('')} />` : s.slice(lt, i + 2);
        return { end: i + 2, name, selfClosing: true, text };
      }
      if (i + 1 >= n) {
        return { end: -1, name, selfClosing: false, text: '' };
      }
      // A lone slash inside a tag: skip it.
      repairs.add('malformed_tag');
      dirty = true;
      i++;
      continue;
    }
    if (c === '<') {
      // The tag never ended: treat it as closed before the next tag starts.
      repairs.add('malformed_tag');
      return { end: i, name, selfClosing: false, text: `${parts.join('')}>` };
    }
    // An attribute.
    let j = i;
    while (j < n && !WS.test(s.charAt(j)) && !'=/><'.includes(s.charAt(j))) {
      j++;
    }
    const attr = s.slice(i, j);
    let k = j;
    while (k < n && WS.test(s.charAt(k))) {
      k++;
    }
    if (k >= n) {
      return { end: -1, name, selfClosing: false, text: '' };
    }
    if (s.charAt(k) !== '=') {
      // An attribute without a value: dropped, as XML has no boolean attributes.
      repairs.add('malformed_tag');
      dirty = true;
      i = k;
      continue;
    }
    k++;
    while (k < n && WS.test(s.charAt(k))) {
      k++;
    }
    if (k >= n) {
      return { end: -1, name, selfClosing: false, text: '' };
    }
    const quote = s.charAt(k);
    let value: string;
    let next: number;
    if (quote === '"' || quote === "'") {
      const close = s.indexOf(quote, k + 1);
      if (close < 0) {
        return { end: -1, name, selfClosing: false, text: '' };
      }
      value = s.slice(k + 1, close);
      next = close + 1;
    } else {
      repairs.add('malformed_tag');
      let e = k;
      while (e < n && !WS.test(s.charAt(e)) && s.charAt(e) !== '>' && s.charAt(e) !== '/') {
        e++;
      }
      if (e >= n) {
        return { end: -1, name, selfClosing: false, text: '' };
      }
      value = s.slice(k, e);
      next = e;
      dirty = true;
    }
    const cleaned = cleanChars(value, true, repairs);
    if (cleaned !== value || quote === "'") {
      dirty = true;
    }
    if (attr.length > 0) {
      parts.push(` ${attr}="${cleaned}"`);
    } else {
      repairs.add('malformed_tag');
      dirty = true;
    }
    i = next;
  }
}

/** The sanitizer's state while it walks the dump. */
interface Walk {
  readonly s: string;
  readonly out: string[];
  /** Open element names, outermost first. */
  readonly stack: string[];
  /** The root element's name, once seen. */
  root: string;
  rootClosed: boolean;
  readonly repairs: Repairs;
}

/** Where a step leaves the walk: the next index, or `END` when the dump stops there. */
const END = -1;

/** Markup that is not an element at `i` (`<?…?>`, comments, CDATA, DOCTYPE): the index past it; null when there is none. */
function skipMarkup(w: Walk, i: number): number | null {
  const { s } = w;
  const past = (close: string, from: number): number => {
    const end = s.indexOf(close, from);
    return end < 0 ? END : end + close.length;
  };
  if (s.startsWith('<?', i)) {
    return past('?>', i + 2);
  }
  if (s.startsWith('<!--', i)) {
    return past('-->', i + 4);
  }
  if (s.startsWith('<![CDATA[', i)) {
    const end = past(']]>', i + 9);
    if (end !== END && w.stack.length > 0) {
      w.out.push(s.slice(i, end));
    }
    return end;
  }
  if (s.startsWith('<!', i)) {
    // A DOCTYPE never comes from UI Automator; dropping it also drops any entity definitions.
    w.repairs.add('doctype');
    const bracket = s.indexOf('[', i);
    const gt = s.indexOf('>', i);
    let end = gt;
    if (bracket >= 0 && gt >= 0 && bracket < gt) {
      const close = s.indexOf(']>', bracket);
      end = close < 0 ? -1 : close + 1;
    }
    return end < 0 ? END : end + 1;
  }
  return null;
}

/** An end tag at `i`: closes up to its element (what it skips over was left unclosed). */
function endTag(w: Walk, i: number): number {
  const { s, stack, repairs } = w;
  const gt = s.indexOf('>', i + 2);
  const nextLt = s.indexOf('<', i + 2);
  if (gt < 0) {
    return END;
  }
  if (nextLt >= 0 && nextLt < gt) {
    repairs.add('malformed_tag');
    return nextLt;
  }
  const name = s.slice(i + 2, gt).trim();
  const depth = stack.lastIndexOf(name);
  if (depth < 0) {
    repairs.add('stray_end_tag');
    return gt + 1;
  }
  if (depth < stack.length - 1) {
    repairs.add('unclosed_element');
  }
  while (stack.length > depth) {
    w.out.push(`</${stack.pop() ?? ''}>`);
  }
  if (stack.length === 0) {
    w.rootClosed = true;
  }
  return gt + 1;
}

/** A start tag at `i` (or a `<` that starts none: escaped inside the hierarchy, skipped outside). */
function startTag(w: Walk, i: number): number {
  const { s, stack, repairs } = w;
  NAME.lastIndex = i + 1;
  if (!NAME.test(s)) {
    if (stack.length > 0) {
      repairs.add('bare_lt');
      w.out.push('&lt;');
    } else {
      repairs.add('leading_text');
    }
    return i + 1;
  }
  const tag = scanStartTag(s, i, repairs);
  if (tag.end < 0) {
    return END;
  }
  if (stack.length === 0) {
    if (w.root !== '') {
      repairs.add('trailing_text');
      return END;
    }
    if (!ROOT_NAMES.includes(tag.name)) {
      // Something tag-shaped in the log before the hierarchy: skip it.
      repairs.add('leading_text');
      return tag.end;
    }
    w.root = tag.name;
  }
  w.out.push(tag.text);
  if (!tag.selfClosing) {
    stack.push(tag.name);
  } else if (stack.length === 0) {
    w.rootClosed = true;
  }
  return tag.end;
}

/** Text between markup: kept (cleaned) inside the hierarchy, noted as leading or trailing outside it. */
function text(w: Walk, from: number, to: number): void {
  if (to <= from) {
    return;
  }
  const t = w.s.slice(from, to);
  if (w.stack.length > 0) {
    w.out.push(cleanChars(t, false, w.repairs));
  } else if (t.trim().length > 0) {
    w.repairs.add(w.rootClosed ? 'trailing_text' : 'leading_text');
  }
}

/** Walks the dump from its hierarchy's start to its end. */
function walk(w: Walk, start: number): void {
  const { s } = w;
  const n = s.length;
  let i = start;
  while (i < n) {
    const lt = s.indexOf('<', i);
    text(w, i, lt < 0 ? n : lt);
    if (lt < 0 || w.rootClosed) {
      if (w.rootClosed && s.slice(lt < 0 ? n : lt).trim().length > 0) {
        w.repairs.add('trailing_text');
      }
      return;
    }
    const next = skipMarkup(w, lt) ?? (s.charAt(lt + 1) === '/' ? endTag(w, lt) : startTag(w, lt));
    if (next === END) {
      return;
    }
    i = next;
  }
}

/**
 * Turns raw `uiautomator dump` output (bytes or text) into well-formed XML, saying what it repaired.
 * Fails only when the output holds no hierarchy at all (for example `ERROR: null root node …`).
 */
export function sanitizeUiXml(input: Uint8Array | string): UiResult<SanitizedXml> {
  const repairs = new Repairs();
  let s: string;
  if (typeof input === 'string') {
    s = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  } else {
    const decoded = decodeDumpBytes(input);
    decoded.repairs.forEach((r) => repairs.add(r));
    s = decoded.text;
  }
  const start = findStart(s);
  if (start < 0) {
    const said = s.trim().slice(0, 200);
    return uiFail(
      'EMPTY_DUMP',
      said.length > 0 ? `the dump holds no UI hierarchy; the device said: ${said}` : 'the dump is empty',
    );
  }
  if (s.slice(0, start).trim().length > 0) {
    repairs.add('leading_text');
  }
  const w: Walk = { s, out: [], stack: [], root: '', rootClosed: false, repairs };
  walk(w, start);
  if (w.root === '') {
    return uiFail('EMPTY_DUMP', 'the dump ended before its hierarchy began');
  }
  if (w.stack.length > 0) {
    repairs.add('truncated');
    while (w.stack.length > 0) {
      w.out.push(`</${w.stack.pop() ?? ''}>`);
    }
  }
  return { ok: true, value: { xml: w.out.join(''), root: w.root, repairs: repairs.list } };
}
