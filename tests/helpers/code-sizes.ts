import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { sourceFiles } from './source-files.js';

/** Issue 20's limit, kept as a rule: no function over this many lines. */
export const FUNCTION_LIMIT = 120;
/** Files over this many lines are listed for review (scripts/code-sizes.ts); no test refuses them. */
export const FILE_REVIEW = 500;

export interface FunctionSize {
  file: string;
  line: number;
  name: string;
  lines: number;
}

export interface CodeSizes {
  functions: FunctionSize[];
  files: { file: string; lines: number }[];
}

/** The source the limits apply to: src/ and the host page, tests aside. */
function codeFiles(root: string): string[] {
  const web = path.join(root, 'web', 'src');
  const tsx = (dir: string): string[] =>
    ts.sys.readDirectory(dir, ['.ts', '.tsx']).filter((f) => !/\.test\.tsx?$/.test(f));
  return [...sourceFiles(path.join(root, 'src')), ...tsx(web)];
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) {
    return named.name.getText(source);
  }
  const parent = node.parent;
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent)) {
    return `(argument of ${parent.expression.getText(source).slice(0, 40)})`;
  }
  return '(anonymous)';
}

/** Every function's length and every file's, largest first. */
export function measureCode(root: string): CodeSizes {
  const functions: FunctionSize[] = [];
  const files: CodeSizes['files'] = [];
  for (const file of codeFiles(root)) {
    const text = readFileSync(file, 'utf8');
    const relative = path.relative(root, file);
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    files.push({ file: relative, lines: source.getLineAndCharacterOfPosition(text.length).line + 1 });
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        functions.push({
          file: relative,
          line: start + 1,
          name: nameOf(node, source),
          lines: end - start + 1,
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  functions.sort((a, b) => b.lines - a.lines);
  files.sort((a, b) => b.lines - a.lines);
  return { functions, files };
}
