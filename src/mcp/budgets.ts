/**
 * How much of an answer an agent's context gets. Clients cut long answers on their own terms —
 * Claude Code saves a text over 50,000 characters to a file and hands the model a path, stops at
 * 25,000 tokens (MAX_MCP_OUTPUT_TOKENS) and truncates `isError` texts past about 11,000 characters —
 * so droidbus stays under them: the tools that can answer a lot bound their own answers and say
 * how to page, and the server cuts any answer text past TEXT_BUDGET (and error text past
 * ERROR_TEXT_BUDGET) as a backstop, saying where and how to get the rest.
 */

/** Most characters of an answer's text, by default. */
export const TEXT_BUDGET = 40_000;
/**
 * The `_meta` key of a tools/list entry that declares a tool's larger answers to clients: Claude Code
 * keeps a result up to that many characters inline (ceiling 500,000) instead of saving it to a file.
 */
export const MAX_RESULT_SIZE_META = 'anthropic/maxResultSizeChars';
/** The highest limit a tool may declare (Claude Code's ceiling for MAX_RESULT_SIZE_META). */
export const MAX_DECLARED_ANSWER_CHARS = 500_000;

/**
 * The characters an answer may use: TEXT_BUDGET by default, the tool's declared `max` when the caller
 * explicitly asked for more.
 */
export function answerBudget(explicit: boolean, max: number): number {
  return explicit ? Math.min(max, MAX_DECLARED_ANSWER_CHARS) : TEXT_BUDGET;
}

/** Most characters of an error's text. */
export const ERROR_TEXT_BUDGET = 8_000;
/**
 * Most bytes of what the model reads of the default tools/list (names, titles, descriptions, input
 * schemas): every session pays it before its first call, so it stays near mobile-mcp 1.0.4's 23,129 B.
 */
export const MODEL_LISTING_BUDGET = 24_000;
/** Most bytes of the whole default tools/list (output schemas too): what every client downloads. */
export const TOOLS_LIST_BUDGET = 45 * 1024;

export const ERROR_CUT_HINT = 'a narrower request gives a shorter error';
/** The backstop's advice; tools that page say how in their own answers before it is needed. */
export const TEXT_CUT_HINT =
  'ask for less: a smaller count or limit, a filter or query, or the next page (since_seq, before_seq, a cursor) where the tool has one';

/**
 * `text` cut to at most `limit` characters (never inside a surrogate pair), ending in a line that
 * says how much was cut and `how` to get the rest.
 */
export function capText(text: string, limit: number, how: string): string {
  if (text.length <= limit) {
    return text;
  }
  const note = (left: number): string =>
    `\n[cut here: ${left.toLocaleString('en-US')} more characters; ${how}]`;
  let keep = limit - note(text.length).length;
  if (keep > 0 && /[\uD800-\uDBFF]/.test(text.charAt(keep - 1))) {
    keep--;
  }
  keep = Math.max(0, keep);
  return text.slice(0, keep) + note(text.length - keep);
}

/**
 * The newest of `items` whose JSON (a string with its quotes and escapes, as a structured answer
 * carries it) fits `chars`; with `keepOne`, the newest goes out however large it is.
 */
export function newestWithin<T>(items: readonly T[], chars: number, keepOne = false): T[] {
  let used = 0;
  let from = items.length;
  while (from > 0) {
    const cost = JSON.stringify(items[from - 1]).length + 1;
    if (used + cost > chars && !(keepOne && from === items.length)) {
      break;
    }
    used += cost;
    from--;
  }
  return items.slice(from);
}
