/**
 * The largest functions and source files of src/ and web/src/, with the limits of issue 20: no
 * function over 120 lines, no file over 500 (tests and generated code aside). Lines are counted
 * from a function's first line to its last, nested functions included.
 *
 * Run: npx tsx scripts/code-sizes.ts [--top N] [--json]   (exits 1 when a limit is broken)
 */
import { measureCode, FUNCTION_LIMIT, FILE_LIMIT } from '../tests/helpers/code-sizes.js';

const args = process.argv.slice(2);
const topIndex = args.indexOf('--top');
const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 15;
const sizes = measureCode(process.cwd());

if (args.includes('--json')) {
  console.log(JSON.stringify(sizes, null, 2));
} else {
  console.log(
    `functions: ${sizes.functions.length}, over 100 lines: ${sizes.functions.filter((f) => f.lines > 100).length}, over ${FUNCTION_LIMIT}: ${sizes.functions.filter((f) => f.lines > FUNCTION_LIMIT).length}`,
  );
  console.log(`largest functions:`);
  for (const f of sizes.functions.slice(0, top)) {
    console.log(`  ${String(f.lines).padStart(5)}  ${f.file}:${f.line}  ${f.name}`);
  }
  console.log(
    `files: ${sizes.files.length}, over ${FILE_LIMIT} lines: ${sizes.files.filter((f) => f.lines > FILE_LIMIT).length}`,
  );
  console.log(`largest files:`);
  for (const f of sizes.files.slice(0, top)) {
    console.log(`  ${String(f.lines).padStart(5)}  ${f.file}`);
  }
}
const broken =
  sizes.functions.some((f) => f.lines > FUNCTION_LIMIT) || sizes.files.some((f) => f.lines > FILE_LIMIT);
process.exitCode = broken ? 1 : 0;
