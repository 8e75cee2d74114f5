/** Regular expressions as the device's grep and sed read them (POSIX BRE/ERE on JavaScript's engine). */

/** Translates a POSIX basic regular expression into a JavaScript one. */
export function breToJs(re: string): string {
  let out = '';
  for (let i = 0; i < re.length; i++) {
    const c = re.charAt(i);
    if (c === '\\') {
      const n = re.charAt(i + 1);
      i++;
      if ('(){}|+?'.includes(n)) {
        out += n;
      } else if (n === '') {
        out += '\\\\';
      } else {
        out += '\\' + n;
      }
    } else if ('(){}|+?'.includes(c)) {
      out += '\\' + c;
    } else if (c === '[') {
      const end = findBracketEnd(re, i);
      out += re.slice(i, end + 1).replace(/\\/g, '\\\\');
      i = end;
    } else {
      out += c;
    }
  }
  return out;
}

function findBracketEnd(re: string, start: number): number {
  let i = start + 1;
  if (re.charAt(i) === '^') {
    i++;
  }
  if (re.charAt(i) === ']') {
    i++;
  }
  while (i < re.length && re.charAt(i) !== ']') {
    if (re.startsWith('[:', i)) {
      const close = re.indexOf(':]', i + 2);
      i = close < 0 ? i + 1 : close + 2;
      continue;
    }
    i++;
  }
  return i < re.length ? i : re.length - 1;
}

/** POSIX character classes inside brackets become their JavaScript equivalents. */
export function posixClasses(src: string): string {
  const map: Record<string, string> = {
    alpha: 'A-Za-z',
    digit: '0-9',
    alnum: 'A-Za-z0-9',
    upper: 'A-Z',
    lower: 'a-z',
    space: ' \\t\\n\\r\\f\\v',
    blank: ' \\t',
    punct: '!-\\/:-@\\[-`{-~',
    xdigit: '0-9A-Fa-f',
  };
  return src.replace(/\[:([a-z]+):\]/g, (m, name: string) => map[name] ?? m);
}

/** Escapes text so that a regular expression matches it literally. */
export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
