/**
 * The simulated UiAutomator2 server's element commands, routed as server/AppiumServlet.java
 * registers them (registerPostHandler: element, elements, element/:id/click, /clear, /value, back;
 * registerGetHandler: screenshot, element/:id/text, /attribute/:name, /rect, window/:windowHandle/size;
 * read at commit 00f2c683 — the stored corpus has no 10.6.6 tree, so no line numbers are given), after
 * appium-uiautomator2-server 10.6.x:
 * handler/FindElement.java and FindElements.java (strategies `id` — a bare id gets the current
 * app's package, ElementLocationHelpers.rewriteIdLocator —, `accessibility id`, `class name`,
 * `xpath` over the page source, `-android uiautomator`); a found element answers the element model
 * `{"ELEMENT": id, "element-6066-11e4-a52e-4f735466cecf": id}` (model/api/ElementModel.java); none is
 * 404 "no such element" for one and `[]` for several; Click.java, Clear.java, SendKeysToElement.java
 * (`text`, `replace`: the node's text set through the accessibility API), GetText.java,
 * GetElementAttribute.java (the page source's attribute names), GetRect.java (`x`, `y`, `width`,
 * `height`). An element is kept by its place in the window roots; a place that no longer holds the
 * same kind of node is 404 "stale element reference".
 *
 * XPath is the subset the simulator evaluates itself (the real server runs XPath 1.0 on its page
 * source): `/` and `//` steps with a class name or `*`, and predicates `[n]`, `[@a="v"]`, `[@a]`,
 * `[contains(@a,"v")]`, `[starts-with(@a,"v")]`, `[text()="v"]`, joined by `and`. Anything else is
 * 400 "invalid selector", saying so.
 */
import { randomUUID } from 'node:crypto';
import { HttpError, missing } from './helper-http.js';
import { nodeAttributes, nodeTag } from './helper-page-source.js';
import type { ViewNode } from './ui/view.js';

const NOT_FOUND = (): HttpError =>
  new HttpError(
    404,
    'no such element',
    'An element could not be located on the page using the given search parameters',
  );

/** A node with where it is: the window's index, then the child indices down to it. */
interface Placed {
  node: ViewNode;
  path: number[];
  /** Its index among its siblings (the page source's `index`). */
  index: number;
}

function* placed(windows: readonly ViewNode[]): Generator<Placed> {
  function* walk(node: ViewNode, path: number[], index: number): Generator<Placed> {
    yield { node, path, index };
    for (const [i, c] of node.children.entries()) {
      yield* walk(c, [...path, i], i);
    }
  }
  for (const [w, root] of windows.entries()) {
    yield* walk(root, [w], w);
  }
}

function attr(p: Placed, name: string): string | undefined {
  return nodeAttributes(p.node, p.index).find(([k]) => k === name)?.[1];
}

/** The element model an element id is answered as. */
export function elementModel(id: string): Record<string, string> {
  return { ELEMENT: id, 'element-6066-11e4-a52e-4f735466cecf': id };
}

type Predicate = (p: Placed, position: number) => boolean;

function invalid(selector: string, why: string): HttpError {
  return new HttpError(
    400,
    'invalid selector',
    `Unable to evaluate the XPath '${selector}': ${why} (the simulator evaluates a subset of XPath 1.0)`,
  );
}

/** One `[...]` predicate of the subset. */
function predicateOf(text: string, selector: string): Predicate {
  const t = text.trim();
  if (/^\d+$/.test(t)) {
    const n = Number(t);
    return (_p, position) => position === n;
  }
  const parts = t.split(/\s+and\s+/);
  const tests = parts.map((part): ((p: Placed) => boolean) => {
    const literal = String.raw`(?:"([^"]*)"|'([^']*)')`;
    let m = new RegExp(String.raw`^@([\w-]+)\s*=\s*${literal}$`).exec(part);
    if (m !== null) {
      const [, name, a, b] = m;
      return (p) => attr(p, name!) === (a ?? b);
    }
    m = new RegExp(String.raw`^text\(\)\s*=\s*${literal}$`).exec(part);
    if (m !== null) {
      const [, a, b] = m;
      return (p) => p.node.text === (a ?? b);
    }
    m = new RegExp(String.raw`^(contains|starts-with)\(\s*@([\w-]+)\s*,\s*${literal}\s*\)$`).exec(part);
    if (m !== null) {
      const [, fn, name, a, b] = m;
      const v = (a ?? b)!;
      return (p) => {
        const value = attr(p, name!) ?? '';
        return fn === 'contains' ? value.includes(v) : value.startsWith(v);
      };
    }
    m = /^@([\w-]+)$/.exec(part);
    if (m !== null) {
      const name = m[1]!;
      return (p) => attr(p, name) !== undefined;
    }
    throw invalid(selector, `the predicate [${t}] is not supported`);
  });
  return (p) => tests.every((test) => test(p));
}

interface Step {
  descendant: boolean;
  name: string;
  predicates: Predicate[];
}

function parseXPath(selector: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  const s = selector.trim();
  if (!s.startsWith('/')) {
    throw invalid(selector, 'only absolute paths (starting with / or //) are supported');
  }
  while (i < s.length) {
    let descendant = false;
    if (s.startsWith('//', i)) {
      descendant = true;
      i += 2;
    } else if (s[i] === '/') {
      i += 1;
    } else {
      throw invalid(selector, `unexpected '${s[i]}' at ${i}`);
    }
    const name = /^(\*|[A-Za-z_][\w.$-]*)/.exec(s.slice(i))?.[1];
    if (name === undefined) {
      throw invalid(selector, `a step needs a name or * at ${i}`);
    }
    i += name.length;
    const predicates: Predicate[] = [];
    while (s[i] === '[') {
      let depth = 0;
      let j = i;
      let quote: string | null = null;
      for (; j < s.length; j++) {
        const c = s[j]!;
        if (quote !== null) {
          quote = c === quote ? null : quote;
        } else if (c === '"' || c === "'") {
          quote = c;
        } else if (c === '[') {
          depth++;
        } else if (c === ']' && --depth === 0) {
          break;
        }
      }
      if (j >= s.length) {
        throw invalid(selector, 'a predicate is not closed');
      }
      predicates.push(predicateOf(s.slice(i + 1, j), selector));
      i = j + 1;
    }
    steps.push({ descendant, name, predicates });
  }
  return steps;
}

/** The nodes an XPath of the subset selects, in document order. */
function xpath(windows: readonly ViewNode[], selector: string): Placed[] {
  const steps = parseXPath(selector);
  // The document: `hierarchy` over the window roots.
  const root: Placed = { node: { children: [...windows] } as unknown as ViewNode, path: [], index: 0 };
  const childrenOf = (p: Placed): Placed[] =>
    p.path.length === 0
      ? windows.map((w, i) => ({ node: w, path: [i], index: i }))
      : p.node.children.map((c, i) => ({ node: c, path: [...p.path, i], index: i }));
  const descendantsOf = (p: Placed): Placed[] => {
    const out: Placed[] = [];
    const visit = (q: Placed): void => {
      for (const c of childrenOf(q)) {
        out.push(c);
        visit(c);
      }
    };
    visit(p);
    return out;
  };
  let current: Placed[] = [root];
  for (const step of steps) {
    const next: Placed[] = [];
    const seen = new Set<string>();
    for (const context of current) {
      const candidates = (step.descendant ? descendantsOf(context) : childrenOf(context)).filter(
        (c) => step.name === '*' || nodeTag(c.node) === step.name,
      );
      let kept = candidates;
      for (const pred of step.predicates) {
        kept = kept.filter((c, i) => pred(c, i + 1));
      }
      for (const k of kept) {
        const key = k.path.join('.');
        if (!seen.has(key)) {
          seen.add(key);
          next.push(k);
        }
      }
    }
    current = next;
  }
  return current;
}

/**
 * A `new UiSelector()` chain (`-android uiautomator`, ByUiAutomatorFinder): resourceId, text,
 * textContains, description, descriptionContains, className, in one chain, ANDed.
 */
function uiSelector(windows: readonly ViewNode[], selector: string): Placed[] {
  const calls = [...selector.matchAll(/\.(\w+)\(\s*"((?:[^"\\]|\\.)*)"\s*\)/g)];
  if (!/^\s*new\s+UiSelector\(\)/.test(selector) || calls.length === 0) {
    throw new HttpError(
      400,
      'invalid selector',
      `the simulator reads only a single new UiSelector() chain of string methods: ${selector}`,
    );
  }
  const tests = calls.map(([, method, raw]) => {
    const v = raw!.replace(/\\(.)/g, '$1');
    switch (method) {
      case 'resourceId':
        return (n: ViewNode) => n.id === v;
      case 'text':
        return (n: ViewNode) => n.text === v;
      case 'textContains':
        return (n: ViewNode) => n.text.includes(v);
      case 'description':
        return (n: ViewNode) => n.desc === v;
      case 'descriptionContains':
        return (n: ViewNode) => n.desc.includes(v);
      case 'className':
        return (n: ViewNode) => n.cls === v;
      default:
        throw new HttpError(400, 'invalid selector', `UiSelector.${method} is not modelled by the simulator`);
    }
  });
  return [...placed(windows)].filter((p) => tests.every((t) => t(p.node)));
}

/** The session's found elements. */
export class ElementsCache {
  private readonly byId = new Map<string, { path: number[]; cls: string }>();

  /** Finds by a strategy; the matches' element ids (at most one unless `multiple`). */
  find(
    windows: readonly ViewNode[],
    strategy: string,
    selector: string,
    appPackage: string,
    multiple: boolean,
  ): string[] {
    let hits: Placed[];
    switch (strategy) {
      case 'id': {
        // rewriteIdLocator: a bare id is the current app's (`pkg:id/name`).
        const full = selector.includes(':id/') ? selector : `${appPackage}:id/${selector}`;
        hits = [...placed(windows)].filter((p) => p.node.id === full);
        break;
      }
      case 'accessibility id':
        hits = [...placed(windows)].filter((p) => p.node.desc === selector);
        break;
      case 'class name':
        hits = [...placed(windows)].filter((p) => p.node.cls === selector);
        break;
      case 'xpath':
        hits = xpath(windows, selector);
        break;
      case '-android uiautomator':
        hits = uiSelector(windows, selector);
        break;
      default:
        throw new HttpError(
          400,
          'invalid selector',
          `Locator Strategy '${strategy}' is not supported for this session`,
        );
    }
    if (!multiple && hits.length === 0) {
      throw NOT_FOUND();
    }
    return hits.slice(0, multiple ? hits.length : 1).map((h) => {
      const id = randomUUID();
      this.byId.set(id, { path: h.path, cls: h.node.cls });
      return id;
    });
  }

  /** The node an element id names on the screen as it is now. */
  resolve(windows: readonly ViewNode[], id: string): ViewNode {
    const kept = this.byId.get(id);
    if (kept === undefined) {
      throw NOT_FOUND();
    }
    let node: ViewNode | undefined = windows[kept.path[0]!];
    for (const i of kept.path.slice(1)) {
      node = node?.children[i];
    }
    if (node === undefined || node.cls !== kept.cls) {
      throw new HttpError(
        404,
        'stale element reference',
        `The element '${id}' does not exist in DOM anymore`,
      );
    }
    return node;
  }

  /** GetElementAttribute: the page source's attribute of that name, as a string (null when absent). */
  static attribute(node: ViewNode, name: string): string | null {
    return nodeAttributes(node, 0).find(([k]) => k === name)?.[1] ?? null;
  }
}

/**
 * What the element routes act on. The server passes in its device's views and actions, so this file
 * needs no Device (the device model imports the server).
 */
export interface ElementDevice {
  /** The window roots a read sees now (the page source's). */
  roots(): readonly ViewNode[];
  /** The app in front (a bare id is its). */
  appPackage(): string;
  display(): { width: number; height: number };
  screenshot(): Promise<Uint8Array>;
  /** A tap injected through the UiAutomation. */
  tap(x: number, y: number): void;
  back(): void;
  /** ACTION_SET_TEXT on a field of the top activity. */
  setField(field: string, text: string, replace: boolean): void;
  noteInput(entry: (string | number)[]): void;
}

/**
 * One element, window, screenshot or back command of a session (`rest`: the path after
 * `session/:id/`); undefined for any other route.
 */
export async function elementRoute(
  method: string,
  rest: readonly string[],
  body: unknown,
  cache: ElementsCache,
  dev: ElementDevice,
): Promise<{ value: unknown } | undefined> {
  const [what, target, verb, name] = rest;
  const find = (multiple: boolean): string[] => {
    const { strategy, selector } = (body ?? {}) as { strategy?: unknown; selector?: unknown };
    if (typeof strategy !== 'string' || typeof selector !== 'string') {
      throw missing('FindElementModel', typeof strategy !== 'string' ? 'strategy' : 'selector');
    }
    return cache.find(dev.roots(), strategy, selector, dev.appPackage(), multiple);
  };
  const node = (): ViewNode => cache.resolve(dev.roots(), target!);
  const key = `${method} ${what ?? ''}${target !== undefined ? '/:e' : ''}${verb !== undefined ? `/${verb}` : ''}`;
  switch (key) {
    case 'POST element':
      return { value: elementModel(find(false)[0]!) };
    case 'POST elements':
      return { value: find(true).map(elementModel) };
    case 'POST element/:e/click': {
      const [l, t, r, b] = node().bounds;
      const x = Math.floor((l + r) / 2);
      const y = Math.floor((t + b) / 2);
      dev.noteInput(['helper-click', x, y]);
      dev.tap(x, y);
      return { value: null };
    }
    case 'POST element/:e/clear':
    case 'POST element/:e/value': {
      const action = node().action;
      const field = action?.startsWith('focus:') === true ? action.slice('focus:'.length) : null;
      if (field === null) {
        throw new HttpError(400, 'invalid element state', `The element '${target}' does not accept text`);
      }
      const { text, replace } = (body ?? {}) as { text?: unknown; replace?: unknown };
      if (verb === 'value' && typeof text !== 'string') {
        throw missing('SendKeysModel', 'text');
      }
      const typed = verb === 'clear' ? '' : (text as string);
      dev.noteInput([verb === 'clear' ? 'helper-clear' : 'helper-set-text', [...typed].length]);
      dev.setField(field, typed, verb === 'clear' || replace === true);
      return { value: null };
    }
    case 'GET element/:e/text':
      return { value: node().text };
    case 'GET element/:e/attribute':
      return { value: ElementsCache.attribute(node(), name ?? '') };
    case 'GET element/:e/rect': {
      const [l, t, r, b] = node().bounds;
      return { value: { x: l, y: t, width: r - l, height: b - t } };
    }
    case 'GET window/:e/size': {
      // GetDeviceSize.java: the display's width and height.
      const d = dev.display();
      return { value: { width: d.width, height: d.height } };
    }
    case 'GET screenshot':
      // CaptureScreenshot.java: the screen as base64 PNG.
      return { value: Buffer.from(await dev.screenshot()).toString('base64') };
    case 'POST back':
      dev.back();
      return { value: null };
    default:
      return undefined;
  }
}
