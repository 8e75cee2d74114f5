/**
 * A small, forgiving JSON reader for the `# { … }` lines of R8 mappings. R8 reads them with Gson in
 * lenient mode, and real mappings (and R8's own tests) use single-quoted strings and unquoted keys
 * (`# { id: 'com.android.tools.r8.mapping', version: '2.0' }`), which `JSON.parse` rejects.
 */
export type LenientValue =
  string | number | boolean | null | LenientValue[] | { [key: string]: LenientValue };

class LenientJsonError extends Error {}

/** Parses one lenient JSON value; returns undefined when the text is not one. */
export function parseLenientJson(text: string): LenientValue | undefined {
  const reader = new Reader(text);
  try {
    const value = reader.value();
    reader.skipSpace();
    return reader.atEnd() ? value : undefined;
  } catch (err) {
    if (err instanceof LenientJsonError) {
      return undefined;
    }
    throw err;
  }
}

class Reader {
  private pos = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos] ?? '')) {
      this.pos++;
    }
  }

  value(): LenientValue {
    this.skipSpace();
    const c = this.text[this.pos];
    if (c === undefined) {
      throw new LenientJsonError('unexpected end');
    }
    if (c === '{') {
      return this.object();
    }
    if (c === '[') {
      return this.array();
    }
    if (c === '"' || c === "'") {
      return this.quoted(c);
    }
    return this.bare();
  }

  private object(): { [key: string]: LenientValue } {
    this.pos++;
    const result: { [key: string]: LenientValue } = {};
    for (;;) {
      this.skipSpace();
      const c = this.text[this.pos];
      if (c === '}') {
        this.pos++;
        return result;
      }
      const key = c === '"' || c === "'" ? this.quoted(c) : String(this.bare());
      this.skipSpace();
      if (this.text[this.pos] !== ':') {
        throw new LenientJsonError('expected colon');
      }
      this.pos++;
      result[key] = this.value();
      this.skipSpace();
      const next = this.text[this.pos];
      if (next === ',') {
        this.pos++;
      } else if (next !== '}') {
        throw new LenientJsonError('expected comma or brace');
      }
    }
  }

  private array(): LenientValue[] {
    this.pos++;
    const result: LenientValue[] = [];
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === ']') {
        this.pos++;
        return result;
      }
      result.push(this.value());
      this.skipSpace();
      const next = this.text[this.pos];
      if (next === ',') {
        this.pos++;
      } else if (next !== ']') {
        throw new LenientJsonError('expected comma or bracket');
      }
    }
  }

  private quoted(quote: string): string {
    this.pos++;
    let out = '';
    while (this.pos < this.text.length) {
      const c = this.text[this.pos++] as string;
      if (c === quote) {
        return out;
      }
      if (c === '\\') {
        const e = this.text[this.pos++];
        if (e === undefined) {
          break;
        }
        if (e === 'u') {
          const hex = this.text.slice(this.pos, this.pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            throw new LenientJsonError('bad unicode escape');
          }
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 4;
        } else {
          out += ESCAPES[e] ?? e;
        }
      } else {
        out += c;
      }
    }
    throw new LenientJsonError('unterminated string');
  }

  private bare(): LenientValue {
    const start = this.pos;
    while (this.pos < this.text.length && !/[\s,:{}[\]]/.test(this.text[this.pos] ?? '')) {
      this.pos++;
    }
    const word = this.text.slice(start, this.pos);
    if (word === '') {
      throw new LenientJsonError('expected a value');
    }
    if (word === 'true') {
      return true;
    }
    if (word === 'false') {
      return false;
    }
    if (word === 'null') {
      return null;
    }
    const n = Number(word);
    return Number.isNaN(n) ? word : n;
  }
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };
