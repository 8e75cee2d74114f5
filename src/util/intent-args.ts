/**
 * Validators for the parts of an Android intent an agent sends with `send_intent`. Every part is
 * also quoted for the device shell; these rules are defence in depth and give clear refusals.
 */
import { quotedSafely, unsafeTextProblem } from './text-safety.js';

/** An Android package name (`com.example.app`). */
export const PACKAGE_NAME_RE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;

/** An intent action or category: dotted identifiers (`android.intent.action.VIEW`, `com.x.ACTION_Y`). */
export const INTENT_NAME_RE = /^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z0-9_$]+)*$/;

/** A component: `package/class` or `package/.Class` (`com.example/.MainActivity`). */
export const COMPONENT_RE =
  /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+\/\.?[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;

/** An extra's key: identifiers with dots, colons and dashes (`user_id`, `com.app.extra.MODE`). */
export const EXTRA_KEY_RE = /^[A-Za-z_][A-Za-z0-9_.:-]{0,199}$/;

export const EXTRA_TYPES = ['string', 'int', 'long', 'bool', 'float'] as const;
export type ExtraType = (typeof EXTRA_TYPES)[number];

/** The `am` option of each extra type. */
export const EXTRA_FLAG: Readonly<Record<ExtraType, string>> = {
  string: '--es',
  int: '--ei',
  long: '--el',
  bool: '--ez',
  float: '--ef',
};

/** The longest extra value, in characters. */
export const MAX_EXTRA_VALUE = 4096;

const INT32 = { min: -(2n ** 31n), max: 2n ** 31n - 1n };
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

function inRange(value: string, range: { min: bigint; max: bigint }): boolean {
  const n = BigInt(value);
  return n >= range.min && n <= range.max;
}

/**
 * Why a value does not fit its extra type (what `am` would refuse or misread), or null when it
 * fits. String values may hold anything printable plus tabs and line breaks.
 */
export function extraValueProblem(type: ExtraType, value: string): string | null {
  switch (type) {
    case 'string': {
      if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(value)) {
        return 'a string extra may not contain control characters other than tab and line feed';
      }
      const unsafe = unsafeTextProblem(value);
      return unsafe === null ? null : `a string extra may not be sent as it is: ${unsafe}`;
    }
    case 'int':
      return /^-?\d{1,10}$/.test(value) && inRange(value, INT32)
        ? null
        : `'${quotedSafely(value)}' is not a 32-bit integer`;
    case 'long':
      return /^-?\d{1,19}$/.test(value) && inRange(value, INT64)
        ? null
        : `'${quotedSafely(value)}' is not a 64-bit integer`;
    case 'bool':
      return value === 'true' || value === 'false' ? null : `a bool extra is 'true' or 'false'`;
    case 'float':
      return /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(value) && Number.isFinite(Number(value))
        ? null
        : `'${quotedSafely(value)}' is not a finite decimal number`;
    default: {
      const never: never = type;
      return `unknown extra type ${String(never)}`;
    }
  }
}
