/**
 * Imports R8's retrace test suite (the `StackTraceForTest` classes of
 * `src/test/java/com/android/tools/r8/retrace/stacktraces/`) as fixtures:
 * `tests/fixtures/retrace/r8/<Class>/{mapping,trace,expected,expected-verbose}.txt` and `case.json`.
 *
 *   npx tsx scripts/import-r8-retrace.ts /path/to/r8.git [commit]
 *
 * The Java sources are read with `git show` (a bare mirror is enough). Each method's return expression
 * is evaluated by a small reader of the Java subset the suite uses (string literals and `+`,
 * `Arrays.asList`, `ImmutableList.of`, `Collections.singletonList`/`emptyList`, `StringUtils.lines`/
 * `joinLines`, calls of the class's own methods); anything else stops the import with the file named.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SUITE = 'src/test/java/com/android/tools/r8/retrace/stacktraces';
const RUNNER = 'src/test/java/com/android/tools/r8/retrace/RetraceTests.java';
const OUT = join(import.meta.dirname, '../tests/fixtures/retrace/r8');

type Value = string | string[];

interface Token {
  kind: 'str' | 'id' | 'num' | 'punct';
  text: string;
}

function unescapeJava(body: string): string {
  return body.replace(/\\(u+[0-9a-fA-F]{4}|[0-7]{1,3}|.)/g, (_, esc: string) => {
    if (esc.startsWith('u')) {
      return String.fromCharCode(Number.parseInt(esc.replace(/^u+/, ''), 16));
    }
    if (/^[0-7]/.test(esc)) {
      return String.fromCharCode(Number.parseInt(esc, 8));
    }
    const simple: Record<string, string> = { t: '\t', n: '\n', r: '\r', b: '\b', f: '\f', s: ' ' };
    return simple[esc] ?? esc;
  });
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const pattern =
    /\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|"((?:[^"\\\n]|\\.)*)"|([A-Za-z_$][\w$.]*)|(\d+)|([(),+;])/gy;
  let match: RegExpExecArray | null;
  while (pattern.lastIndex < source.length && (match = pattern.exec(source)) !== null) {
    if (match[1] !== undefined) {
      tokens.push({ kind: 'str', text: unescapeJava(match[1]) });
    } else if (match[2] !== undefined) {
      tokens.push({ kind: 'id', text: match[2] });
    } else if (match[3] !== undefined) {
      tokens.push({ kind: 'num', text: match[3] });
    } else if (match[4] !== undefined) {
      tokens.push({ kind: 'punct', text: match[4] });
    }
  }
  if (pattern.lastIndex < source.length) {
    throw new Error(`cannot read Java near: ${source.slice(pattern.lastIndex, pattern.lastIndex + 60)}`);
  }
  return tokens;
}

/** The body of `name()` in the class source (from its `{` to the matching `}`). */
function methodBody(source: string, name: string): string | null {
  const head = new RegExp(`\\b${name}\\(\\)\\s*\\{`).exec(source);
  if (head === null) {
    return null;
  }
  let depth = 0;
  let inString = false;
  for (let i = head.index + head[0].length - 1; i < source.length; i++) {
    const c = source[i];
    if (inString) {
      if (c === '\\') {
        i++;
      } else if (c === '"') {
        inString = false;
      }
    } else if (c === '"') {
      inString = true;
    } else if (c === '{') {
      depth++;
    } else if (c === '}' && --depth === 0) {
      return source.slice(head.index + head[0].length, i);
    }
  }
  throw new Error(`unterminated method ${name}`);
}

class Evaluator {
  private tokens: Token[] = [];
  private at = 0;

  constructor(
    private readonly source: string,
    private readonly file: string,
  ) {}

  method(name: string): Value | null {
    const body = methodBody(this.source, name);
    if (body === null) {
      return null;
    }
    const saved = { tokens: this.tokens, at: this.at };
    this.tokens = tokenize(body);
    this.at = 0;
    this.expectId('return');
    const value = this.expression();
    this.expectPunct(';');
    if (this.at !== this.tokens.length) {
      this.fail(`more than one statement in ${name}()`);
    }
    ({ tokens: this.tokens, at: this.at } = saved);
    return value;
  }

  private fail(message: string): never {
    throw new Error(`${this.file}: ${message}`);
  }

  private expectId(text: string): void {
    const token = this.tokens[this.at++];
    if (token?.kind !== 'id' || token.text !== text) {
      this.fail(`expected ${text}, got ${token?.text}`);
    }
  }

  private expectPunct(text: string): void {
    const token = this.tokens[this.at++];
    if (token?.kind !== 'punct' || token.text !== text) {
      this.fail(`expected ${text}, got ${token?.text}`);
    }
  }

  private peek(text: string): boolean {
    const token = this.tokens[this.at];
    return token?.kind === 'punct' && token.text === text;
  }

  private expression(): Value {
    let value = this.term();
    while (this.peek('+')) {
      this.at++;
      const right = this.term();
      if (typeof value !== 'string' || typeof right !== 'string') {
        this.fail('+ of a list');
      }
      value += right;
    }
    return value;
  }

  private term(): Value {
    const token = this.tokens[this.at++];
    if (token === undefined) {
      this.fail('unexpected end');
    }
    if (token.kind === 'str') {
      return token.text;
    }
    if (token.kind !== 'id') {
      this.fail(`unexpected ${token.text}`);
    }
    if (!this.peek('(')) {
      return this.constant(token.text);
    }
    this.expectPunct('(');
    const args: Value[] = [];
    while (!this.peek(')')) {
      args.push(this.expression());
      if (this.peek(',')) {
        this.at++;
      }
    }
    this.at++;
    return this.call(token.text, args);
  }

  /** A `static final String` of the class; `new String(new char[] {N})` is the one non-literal form used. */
  private constant(name: string): string {
    const declared = new RegExp(`static final String ${name} =\\s*([^;]+);`).exec(this.source);
    const char = declared && /^new String\(new char\[\] \{(\d+)\}\)$/.exec(declared[1]!.trim());
    if (!char) {
      return this.fail(`unknown constant ${name}`);
    }
    return String.fromCharCode(Number(char[1]));
  }

  private call(name: string, args: Value[]): Value {
    const strings = (): string[] =>
      args.map((arg) => (typeof arg === 'string' ? arg : this.fail(`${name} of a list`)));
    switch (name) {
      case 'Arrays.asList':
      case 'ImmutableList.of':
      case 'Collections.singletonList':
      case 'Collections.emptyList':
        return strings();
      case 'StringUtils.lines':
        return strings()
          .map((line) => `${line}\n`)
          .join('');
      case 'StringUtils.joinLines':
        return strings().join('\n');
      default: {
        if (args.length === 0 && !name.includes('.')) {
          const value = this.method(name);
          if (value !== null) {
            return value;
          }
        }
        return this.fail(`unknown call ${name}`);
      }
    }
  }
}

function asLines(value: Value | null, what: string, file: string): string[] {
  if (value === null || typeof value === 'string') {
    throw new Error(`${file}: ${what} is not a list`);
  }
  return value;
}

/** A list of lines as a file: each line ends with a newline (R8's tests join them and compare). */
function linesFile(lines: string[]): string {
  return lines.map((line) => `${line}\n`).join('');
}

function main(): void {
  const [repo, commit = 'HEAD'] = process.argv.slice(2);
  if (repo === undefined) {
    throw new Error('usage: import-r8-retrace.ts R8_GIT_DIR [COMMIT]');
  }
  const git = (...args: string[]): string =>
    execFileSync('git', ['--git-dir', repo, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const sha = git('rev-parse', commit).trim();
  const runner = git('show', `${sha}:${RUNNER}`);
  const files = git('ls-tree', '--name-only', `${sha}`, `${SUITE}/`).trim().split('\n');
  rmSync(OUT, { recursive: true, force: true });
  const skipped: string[] = [];
  const imported: string[] = [];
  for (const file of files) {
    const name = file.slice(file.lastIndexOf('/') + 1).replace(/\.java$/, '');
    const source = git('show', `${sha}:${file}`);
    if (!/implements StackTraceForTest|extends ActualBotStackTraceBase/.test(source)) {
      continue;
    }
    // The Actual* cases read R8's own mappings from a cloud-storage archive that is not in the repository;
    // NullStackTrace feeds a Java null line (not expressible as text).
    if (/r8MappingFromGitSha|extends ActualBotStackTraceBase/.test(source) || name === 'NullStackTrace') {
      skipped.push(name);
      continue;
    }
    const experimental = new RegExp(`runExperimentalRetraceTest\\(new ${name}\\(\\)\\)`).test(runner);
    const evaluator = new Evaluator(source, file);
    const mapping = evaluator.method('mapping');
    if (typeof mapping !== 'string') {
      throw new Error(`${file}: mapping() is not a string`);
    }
    const dir = join(OUT, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'mapping.txt'), mapping);
    writeFileSync(
      join(dir, 'trace.txt'),
      linesFile(asLines(evaluator.method('obfuscatedStackTrace'), 'trace', file)),
    );
    writeFileSync(
      join(dir, 'expected.txt'),
      linesFile(asLines(evaluator.method('retracedStackTrace'), 'expected', file)),
    );
    const verbose = evaluator.method('retraceVerboseStackTrace');
    writeFileSync(join(dir, 'expected-verbose.txt'), linesFile(asLines(verbose, 'verbose', file)));
    const warnings = /expectedWarnings\(\)\s*\{\s*return (\d+);/.exec(source);
    const meta = {
      source: `${file} @ ${sha}`,
      experimentalMapping: experimental,
      expectedWarnings: warnings === null ? null : Number(warnings[1]),
    };
    writeFileSync(join(dir, 'case.json'), `${JSON.stringify(meta, null, 2)}\n`);
    imported.push(name);
  }
  process.stderr.write(
    `imported ${imported.length} cases; skipped ${skipped.length}: ${skipped.join(', ')}\n`,
  );
}

main();
