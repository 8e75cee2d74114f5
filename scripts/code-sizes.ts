/**
 * The largest functions and source files of src/ and web/src/: a report the review reads. One limit
 * is a rule (no function over 120 lines, tests/guards/code-sizes.test.ts); a file's size is a prompt
 * to ask whether it holds one concept, not a wall — a file split only to pass a count made import
 * cycles, so files over FILE_REVIEW lines are listed for review, never refused. Lines are counted
 * from a function's first line to its last, nested functions included.
 *
 * Run: npx tsx scripts/code-sizes.ts [--top N] [--json]   (exits 1 when a function is over the limit)
 */
import { measureCode, FUNCTION_LIMIT, FILE_REVIEW } from '../tests/helpers/code-sizes.js';

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
    `files: ${sizes.files.length}, over ${FILE_REVIEW} lines (to review): ${sizes.files.filter((f) => f.lines > FILE_REVIEW).length}`,
  );
  console.log(`largest files:`);
  for (const f of sizes.files.slice(0, top)) {
    console.log(`  ${String(f.lines).padStart(5)}  ${f.file}`);
  }
}
process.exitCode = sizes.functions.some((f) => f.lines > FUNCTION_LIMIT) ? 1 : 0;
