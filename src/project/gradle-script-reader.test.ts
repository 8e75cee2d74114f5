import { describe, expect, it } from 'vitest';
import { readScript, tokenize, type ScriptNode } from './gradle-script-reader.js';

function headers(nodes: ScriptNode[]): string[] {
  return nodes.map((n) => n.tokens.map((t) => t.text).join(' ') + (n.body ? ' {…}' : ''));
}

describe('gradle script reader', () => {
  it('a brace inside a string or a comment neither opens nor closes a block', () => {
    const src = `
android {
  buildConfigField "String", "X", "\\"{not a block}\\""
  // a } in a line comment
  /* and { in a block comment */
  namespace 'com.example'
}
after = 1`;
    const tree = readScript(src, 'groovy');
    expect(headers(tree)).toEqual(['android {…}', 'after = 1']);
    expect(headers(tree[0]?.body ?? [])).toEqual([
      'buildConfigField String , X , "{not a block}"',
      'namespace com.example',
    ]);
  });

  it('an interpolated string is marked, a plain one is not, and $ escaped is plain text', () => {
    const toks = tokenize(`a = "v$x" b = "v\${y.z}" c = 'v$x' d = "v\\$x"`, 'groovy').filter(
      (t) => t.kind === 'string',
    );
    expect(toks.map((t) => [t.text, Boolean(t.interpolated)])).toEqual([
      ['v', true],
      ['v', true],
      ['v$x', false],
      ['v$x', false],
    ]);
  });

  it('Kotlin block comments nest, so the code after them is still read', () => {
    const tree = readScript('/* outer /* inner */ still comment */ android { namespace = "a" }', 'kotlin');
    expect(headers(tree)).toEqual(['android {…}']);
  });

  it('a statement continues across a line ending in a comma or a following .call', () => {
    const tree = readScript(
      `proguardFiles getDefaultProguardFile('a.txt'),\n        'b.pro'\nx = foo\n  .bar()`,
      'groovy',
    );
    expect(tree).toHaveLength(2);
    expect(tree[0]?.tokens.filter((t) => t.kind === 'string').map((t) => t.text)).toEqual(['a.txt', 'b.pro']);
    expect(headers(tree)[1]).toBe('x = foo . bar ( )');
  });

  it('a lambda inside call parentheses does not end the statement or the enclosing block', () => {
    const tree = readScript(
      `android {\n  onVariants(selector().all({ v -> v }))\n  namespace = "n"\n}`,
      'kotlin',
    );
    expect(headers(tree[0]?.body ?? [])).toEqual([
      'onVariants ( selector ( ) . all ( {} ) )',
      'namespace = n',
    ]);
  });

  it('malformed input (unbalanced braces, unterminated strings) is read without throwing', () => {
    expect(() => readScript('android { defaultConfig { applicationId "abc\n} } } }', 'groovy')).not.toThrow();
    expect(() => readScript('"""unterminated', 'kotlin')).not.toThrow();
    expect(() => readScript('/* never closed', 'kotlin')).not.toThrow();
    const tree = readScript('} } android { namespace = "x" }', 'kotlin');
    expect(headers(tree)).toEqual(['android {…}']);
  });
});
