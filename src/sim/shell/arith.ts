/**
 * `$(( … ))` arithmetic: integers, variables, + - * / %, comparisons, && || !, unary minus and
 * parentheses — what scripts sent over adb use.
 *
 * Evidence: POSIX Shell Command Language 2.6.4 (arithmetic expansion), as Android's sh (external/mksh)
 * evaluates it.
 */
export function evalArith(expr: string, lookup: (name: string) => string | undefined): number {
  const tokens = expr.match(/\d+|[A-Za-z_][A-Za-z0-9_]*|&&|\|\||==|!=|<=|>=|<<|>>|[-+*/%()<>!~&|^]/g) ?? [];
  const rest = expr.replace(/\d+|[A-Za-z_][A-Za-z0-9_]*|&&|\|\||==|!=|<=|>=|<<|>>|[-+*/%()<>!~&|^]|\s/g, '');
  if (rest !== '') {
    throw new Error(`${expr.trim()}: unexpected '${rest.charAt(0)}'`);
  }
  let i = 0;
  const peek = (): string | undefined => tokens[i];

  const BINARY: Record<string, [number, (a: number, b: number) => number]> = {
    '||': [1, (a, b) => (a !== 0 || b !== 0 ? 1 : 0)],
    '&&': [2, (a, b) => (a !== 0 && b !== 0 ? 1 : 0)],
    '|': [3, (a, b) => a | b],
    '^': [4, (a, b) => a ^ b],
    '&': [5, (a, b) => a & b],
    '==': [6, (a, b) => (a === b ? 1 : 0)],
    '!=': [6, (a, b) => (a !== b ? 1 : 0)],
    '<': [7, (a, b) => (a < b ? 1 : 0)],
    '>': [7, (a, b) => (a > b ? 1 : 0)],
    '<=': [7, (a, b) => (a <= b ? 1 : 0)],
    '>=': [7, (a, b) => (a >= b ? 1 : 0)],
    '<<': [8, (a, b) => a << b],
    '>>': [8, (a, b) => a >> b],
    '+': [9, (a, b) => a + b],
    '-': [9, (a, b) => a - b],
    '*': [10, (a, b) => a * b],
    '/': [10, (a, b) => divide(a, b, false)],
    '%': [10, (a, b) => divide(a, b, true)],
  };

  const primary = (): number => {
    const t = tokens[i++];
    if (t === undefined) {
      throw new Error(`${expr.trim()}: unexpected end of expression`);
    }
    if (t === '(') {
      const v = binary(0);
      if (tokens[i++] !== ')') {
        throw new Error(`${expr.trim()}: missing )`);
      }
      return v;
    }
    if (t === '-') {
      return -primary();
    }
    if (t === '+') {
      return primary();
    }
    if (t === '!') {
      return primary() === 0 ? 1 : 0;
    }
    if (t === '~') {
      return ~primary();
    }
    if (/^\d/.test(t)) {
      return Number.parseInt(t, 10);
    }
    if (/^[A-Za-z_]/.test(t)) {
      const v = lookup(t);
      const n = v === undefined || v === '' ? 0 : Number.parseInt(v, 10);
      return Number.isNaN(n) ? 0 : n;
    }
    throw new Error(`${expr.trim()}: unexpected '${t}'`);
  };

  const binary = (minPrec: number): number => {
    let left = primary();
    for (;;) {
      const op = peek();
      const entry = op === undefined ? undefined : BINARY[op];
      if (entry === undefined || entry[0] < minPrec) {
        return left;
      }
      i++;
      const right = binary(entry[0] + 1);
      left = Math.trunc(entry[1](left, right));
    }
  };

  if (tokens.length === 0) {
    return 0;
  }
  const value = binary(0);
  if (i < tokens.length) {
    throw new Error(`${expr.trim()}: unexpected '${tokens[i] ?? ''}'`);
  }
  return value;
}

function divide(a: number, b: number, remainder: boolean): number {
  if (b === 0) {
    throw new Error('divisor by zero');
  }
  return remainder ? a % b : Math.trunc(a / b);
}
