/**
 * Gradle's NameMatcher, ported: how Gradle picks the task (or project) a command-line name means.
 * It follows `org.gradle.util.internal.NameMatcher` of Gradle 8.x (gradle/gradle,
 * platforms/core-runtime/base-services/src/main/java/org/gradle/util/internal/NameMatcher.java,
 * the version with the case-sensitive prefix stage added for gradle/gradle#23580) and its spec
 * NameMatcherTest.groovy, whose cases `gradle-name-matcher.test.ts` replays.
 *
 * The stages, every candidate tested against all of them:
 *  1. the name itself, when it is a candidate (returned at once);
 *  2. case-insensitive equality;
 *  3. the camel-case pattern, matched whole, case-sensitively (`aDD` → `assembleDemoDebug`);
 *  4. the camel-case pattern as a prefix, case-sensitively (`assembleDemoD` → `assembleDemoDebug…`);
 *  5. the camel-case pattern as a prefix, case-insensitively (`Cr` → `createRelease`), used only
 *     when stages 2–4 and the kebab stages found nothing;
 *  6. kebab case, whole or else as a prefix (`sN` → `some-name`), added to whichever of 2–5 won.
 * The first non-empty of 2–5 wins, the kebab matches are added to it, and only a single match
 * selects; several are Gradle's "ambiguous", none its "not found".
 *
 * Java's regex semantics are kept where task names can meet them: `\p{Punct}` and `\p{Digit}` are
 * ASCII; `\p{javaLowerCase}` is Unicode's Lowercase, and under CASE_INSENSITIVE (JDK 13+,
 * JDK-8214245: the JVMs Gradle 8 runs on) it matches any cased letter — which is why `closeSSRep`
 * reaches `closeAndReleaseSonatypeStagingRepository`.
 */

/** What Gradle makes of a name among candidates. */
export interface NameMatch {
  /** The one candidate selected, or null (none, or ambiguous). */
  selected: string | null;
  /** Every candidate of the winning stage: one when selected, several when ambiguous. */
  matches: string[];
  /** Near misses Gradle suggests when nothing matched (Levenshtein ≤ min(3, length/2)). */
  nearMisses: string[];
}

const LOWER = '\\p{Lowercase}';
const UPPER = '\\p{Uppercase}';
const DIGIT = '[0-9]';
const PUNCT = '[!-\\/:-@\\[-`{-~]';
/** `[\p{javaLowerCase}]*` after each part; under CASE_INSENSITIVE any cased letter. */
const CAMEL_TRAILING = `[${LOWER}]*`;
const KEBAB_TRAILING = `[${LOWER}0-9]*`;
const KEBAB_PREFIX_TRAILING = `[${LOWER}0-9-]*`;

const CAMEL_BOUNDARY = new RegExp(`((?:^|${PUNCT})${LOWER}+)|((?:${UPPER}|${DIGIT})${LOWER}*)`, 'gu');
const KEBAB_BOUNDARY = new RegExp(`((?:^|${PUNCT})${LOWER}+)|(${UPPER}${LOWER}*)`, 'gu');

function quote(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The pattern as Gradle's getPatternForName reads it: parts (each followed by trailing letters) and literal text. */
function tokensOf(name: string, boundary: RegExp): { text: string; part: boolean }[] {
  const out: { text: string; part: boolean }[] = [];
  let pos = 0;
  for (const m of name.matchAll(boundary)) {
    if (m.index > pos) {
      out.push({ text: name.slice(pos, m.index), part: false });
    }
    out.push({ text: m[0], part: true });
    pos = m.index + m[0].length;
  }
  if (pos < name.length) {
    out.push({ text: name.slice(pos), part: false });
  }
  return out;
}

/**
 * Gradle's getPatternForName over the tokens: literal text quoted, each part as `addPart` writes it
 * (`afterPart`: a part came before it, Gradle's `pos > 0`).
 */
function patternFor(
  name: string,
  boundary: RegExp,
  addPart: (afterPart: boolean, part: string) => string,
): string {
  let afterPart = false;
  return tokensOf(name, boundary)
    .map((t) => {
      if (!t.part) {
        return quote(t.text);
      }
      const out = addPart(afterPart, t.text);
      afterPart = true;
      return out;
    })
    .join('');
}

const CASED_LETTER = new RegExp(`[${LOWER}${UPPER}\\p{Lt}]`, 'u');

/**
 * The case-insensitive camel-case prefix stage (`lookingAt`) without a backtracking regex: under
 * CASE_INSENSITIVE a part's trailing class takes any cased letter, so `C[L]*L[L]*O[L]*…` over a
 * long upper-case pattern backtracks exponentially. The positions each token can end at are
 * tracked instead (linear in tokens × candidate length × token length).
 */
function caseInsensitivePrefix(tokens: { text: string; part: boolean }[], candidate: string): boolean {
  let ends = new Set<number>([0]);
  let gap = false;
  for (const token of tokens) {
    const next = new Set<number>();
    for (const start of ends) {
      for (let at = start; at + token.text.length <= candidate.length; at++) {
        if (equalsIgnoreCase(candidate.slice(at, at + token.text.length), token.text)) {
          next.add(at + token.text.length);
        }
        // The letters a part's trailing class takes before the next token.
        if (!gap || !CASED_LETTER.test(candidate[at]!)) {
          break;
        }
      }
    }
    if (next.size === 0) {
      return false;
    }
    ends = next;
    gap = token.part;
  }
  return true;
}

/** Java's String.equalsIgnoreCase, char by char. */
function equalsIgnoreCase(a: string, b: string): boolean {
  if (a.length !== b.length) {
    return false;
  }
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) {
      const ux = x.toUpperCase();
      const uy = y.toUpperCase();
      if (ux !== uy && ux.toLowerCase() !== uy.toLowerCase()) {
        return false;
      }
    }
  }
  return true;
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** The compiled stages for one pattern, to match against several lists. */
export type NameMatcher = (items: Iterable<string>) => NameMatch;

/** Builds Gradle's matcher for `pattern`. */
export function nameMatcher(pattern: string): NameMatcher {
  const camel = patternFor(pattern, CAMEL_BOUNDARY, (_, part) => quote(part) + CAMEL_TRAILING);
  const camelTokens = tokensOf(pattern, CAMEL_BOUNDARY);
  const kebab = patternFor(
    pattern,
    KEBAB_BOUNDARY,
    (afterPart, part) => (afterPart ? '-' : '') + quote(part.toLowerCase()) + KEBAB_TRAILING,
  );
  const camelWhole = new RegExp(`^(?:${camel})$`, 'u');
  const camelPrefix = new RegExp(`^(?:${camel})`, 'u');
  const kebabWhole = new RegExp(`^(?:${kebab})$`, 'u');
  const kebabPrefix = new RegExp(`^(?:${kebab}${KEBAB_PREFIX_TRAILING})$`, 'u');
  const upper = pattern.toUpperCase();
  // Every stage needs the pattern's characters in order in the candidate, whatever their case
  // (kebab adds only '-'): a linear test that spares the regexes most candidates. ASCII only,
  // where lower-casing is exact.
  const ascii = /^[\x00-\x7f]*$/;
  const lowerPattern = ascii.test(pattern) ? pattern.toLowerCase() : null;
  const mayMatch = (c: string): boolean => {
    if (lowerPattern === null || !ascii.test(c)) {
      return true;
    }
    const lc = c.toLowerCase();
    let at = 0;
    for (const ch of lowerPattern) {
      at = lc.indexOf(ch, at);
      if (at < 0) {
        return false;
      }
      at++;
    }
    return true;
  };
  const maxDistance = Math.min(3, Math.floor(pattern.length / 2));

  return (iterable) => {
    const items = [...new Set(iterable)];
    if (items.includes(pattern)) {
      return { selected: pattern, matches: [pattern], nearMisses: [] };
    }
    if (pattern === '') {
      return { selected: null, matches: [], nearMisses: [] };
    }
    const ci: string[] = [];
    const whole: string[] = [];
    const prefix: string[] = [];
    const prefixCi: string[] = [];
    const kebabs: string[] = [];
    const kebabPrefixes: string[] = [];
    const misses: string[] = [];
    for (const c of items) {
      if (!mayMatch(c)) {
        misses.push(c);
        continue;
      }
      let found = false;
      const hit = (list: string[]): void => {
        list.push(c);
        found = true;
      };
      if (equalsIgnoreCase(c, pattern)) {
        hit(ci);
      }
      if (camelWhole.test(c)) {
        hit(whole);
      }
      if (camelPrefix.test(c)) {
        hit(prefix);
      }
      if (caseInsensitivePrefix(camelTokens, c)) {
        hit(prefixCi);
      }
      if (kebabWhole.test(c)) {
        hit(kebabs);
      }
      if (kebabPrefix.test(c)) {
        hit(kebabPrefixes);
      }
      if (!found) {
        misses.push(c);
      }
    }
    const matches = new Set<string>();
    const stage = [ci, whole, prefix].find((s) => s.length > 0);
    if (stage !== undefined) {
      stage.forEach((c) => matches.add(c));
    } else if (kebabs.length === 0 && kebabPrefixes.length === 0) {
      prefixCi.forEach((c) => matches.add(c));
    }
    (kebabs.length > 0 ? kebabs : kebabPrefixes).forEach((c) => matches.add(c));
    const sorted = [...matches].sort();
    // Gradle collects near misses for every candidate no stage matched; they are only ever read
    // when nothing matched, so they are computed only then.
    const near =
      sorted.length > 0
        ? []
        : misses.filter(
            (c) =>
              Math.abs(c.length - upper.length) <= maxDistance &&
              levenshtein(upper, c.toUpperCase()) <= maxDistance,
          );
    return { selected: sorted.length === 1 ? sorted[0]! : null, matches: sorted, nearMisses: near.sort() };
  };
}

/** What Gradle selects for `pattern` among `items`. */
export function matchName(pattern: string, items: Iterable<string>): NameMatch {
  return nameMatcher(pattern)(items);
}

/** Gradle's NameMatcher.formatErrorMessage for a failed selection (`Task 'x' is ambiguous in …`). */
export function nameMatchError(kind: string, pattern: string, where: string, match: NameMatch): string {
  const list = (xs: string[]): string => xs.map((x) => `'${x}'`).join(', ');
  if (match.matches.length > 1) {
    return `${kind} '${pattern}' is ambiguous in ${where}. Candidates are: ${list(match.matches)}.`;
  }
  if (match.nearMisses.length > 0) {
    return `${kind} '${pattern}' not found in ${where}. Some candidates are: ${list(match.nearMisses)}.`;
  }
  return `${kind} '${pattern}' not found in ${where}.`;
}
