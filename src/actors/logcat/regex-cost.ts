/**
 * What a compiled RE2 pattern costs per byte it reads, at worst, in nanoseconds: the sum over its
 * program's instructions of what one step of each kind costs. RE2's NFA (and its bit-state
 * backtracker) visits each instruction at most once per byte, so that sum bounds the work per byte;
 * the kinds differ by up to 3×, which is why one constant per instruction under-priced classes.
 *
 * The weights were measured with `npx tsx bench/regex-cost.ts` (re2js 2.10.0, Node 20, this
 * project's 2-core machines, adversarial text that keeps every instruction alive on every byte): a
 * rune, `.` or small class with its repetition's ALT ~9.5 ns per instruction; a case-folded rune
 * ~16.5 ns; a class of more than 8 range bounds (RE2JS binary-searches it) 12–21 ns, growing with the
 * log of its size; case-folded large classes up to 26 ns (`(?i)[\pL\pN\pM]` gives 1,650 bounds);
 * a capture ~16 ns. The weights below round those up by ~20 %, since the bound must not be beaten.
 */
import type { RE2JS } from 're2js';

/** RE2JS's instruction opcodes (re2js `Inst`). */
const OP = {
  ALT: 1,
  ALT_MATCH: 2,
  CAPTURE: 3,
  EMPTY_WIDTH: 4,
  FAIL: 5,
  MATCH: 6,
  NOP: 7,
  RUNE: 8,
  RUNE1: 9,
  RUNE_ANY: 10,
  RUNE_ANY_NOT_NL: 11,
} as const;
/** re2js's `RE2Flags.FOLD_CASE`, set in a rune instruction's `arg`. */
const FOLD_CASE = 1;

/** Nanoseconds per byte read, per instruction of each kind (see the module comment). */
export const REGEX_WEIGHTS_NS = {
  /** ALT, NOP, EMPTY_WIDTH, MATCH, FAIL, …: the thread bookkeeping of a step. */
  control: 12,
  capture: 20,
  /** One rune, `.`, or a class of up to 8 range bounds (scanned linearly). */
  rune: 13,
  /** One case-folded rune (`(?i)a`: a folding comparison per byte). */
  foldedRune: 20,
  /** A class of more than 8 bounds: `rune` plus this much per doubling of its bounds. */
  perClassDoubling: 1.8,
} as const;

interface Inst {
  op: number;
  arg: number;
  runes: ArrayLike<number>;
}

/** The program of a compiled pattern (re2js keeps it at `re2Input.prog.inst`), or null if not there. */
function instructionsOf(re: RE2JS): readonly Inst[] | null {
  const prog = (re as unknown as { re2Input?: { prog?: { inst?: unknown } } }).re2Input?.prog;
  return Array.isArray(prog?.inst) ? (prog.inst as Inst[]) : null;
}

/** One instruction's weight, in nanoseconds per byte. */
export function instructionWeight(inst: Inst): number {
  const w = REGEX_WEIGHTS_NS;
  switch (inst.op) {
    case OP.RUNE: {
      const bounds = inst.runes.length;
      if (bounds === 1) {
        return (inst.arg & FOLD_CASE) !== 0 ? w.foldedRune : w.rune;
      }
      return bounds <= 8 ? w.rune : w.rune + w.perClassDoubling * Math.log2(bounds);
    }
    case OP.RUNE1:
    case OP.RUNE_ANY:
    case OP.RUNE_ANY_NOT_NL:
      return w.rune;
    case OP.CAPTURE:
      return w.capture;
    default:
      return w.control;
  }
}

/**
 * A compiled pattern's worst-case cost per byte, in nanoseconds. When re2js no longer exposes its
 * program (a changed version), every instruction is priced as the dearest kind there is.
 */
export function regexCostPerByte(re: RE2JS): number {
  const insts = instructionsOf(re);
  if (insts === null) {
    return re.programSize() * (REGEX_WEIGHTS_NS.rune + REGEX_WEIGHTS_NS.perClassDoubling * 16);
  }
  let ns = 0;
  for (const inst of insts) {
    ns += instructionWeight(inst);
  }
  return ns;
}

/** Whether re2js exposes its program (a guard test holds it, so the cost model never goes blind). */
export function canReadProgram(re: RE2JS): boolean {
  return instructionsOf(re) !== null;
}
