/**
 * Which of a test APK's tests AndroidJUnitRunner runs, from `am instrument -e KEY VALUE` arguments
 * (androidx.test RunnerArgs and TestRequestBuilder): `class` (a comma-separated list of classes or
 * `Class#method`s), `notClass` (the same, left out), `package` / `notPackage` (comma-separated
 * package prefixes), and `numShards` with `shardIndex` (androidx ShardingFilter: a test is in shard
 * `abs(hash("method(Class)")) % numShards`, Java's String.hashCode of JUnit's Description name).
 *
 * Evidence: androidx.test runner RunnerArgs (ARGUMENT_TEST_CLASS "class", ARGUMENT_NOT_TEST_CLASS
 * "notClass", ARGUMENT_TEST_PACKAGE "package", ARGUMENT_NOT_TEST_PACKAGE "notPackage",
 * ARGUMENT_NUM_SHARDS "numShards", ARGUMENT_SHARD_INDEX "shardIndex") and TestRequestBuilder's
 * ShardingFilter (Math.abs(description.hashCode()) % numShards == shardIndex); JUnit's
 * Description.createTestDescription names a test `method(Class)`.
 */
import type { SimTestCase } from '../../test-apk.js';

/** Java's String.hashCode (UTF-16 code units, 32-bit overflow). */
export function javaHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) {
    h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  }
  return h;
}

function matchesAny(t: SimTestCase, list: string): boolean {
  return list
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .some((entry) => {
      const [cls, method] = entry.split('#');
      return cls === t.className && (method === undefined || method === t.method);
    });
}

function inPackages(t: SimTestCase, list: string): boolean {
  return list
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .some((p) => t.className.startsWith(`${p}.`));
}

/** The tests `args` select, in the APK's order; a bad shard argument is the runner's IllegalArgumentException. */
export function selectTests(
  tests: readonly SimTestCase[],
  args: ReadonlyMap<string, string>,
): { tests: SimTestCase[] } | { error: string } {
  let out = [...tests];
  const cls = args.get('class');
  if (cls !== undefined) {
    out = out.filter((t) => matchesAny(t, cls));
  }
  const notClass = args.get('notClass');
  if (notClass !== undefined) {
    out = out.filter((t) => !matchesAny(t, notClass));
  }
  const pkg = args.get('package');
  if (pkg !== undefined) {
    out = out.filter((t) => inPackages(t, pkg));
  }
  const notPkg = args.get('notPackage');
  if (notPkg !== undefined) {
    out = out.filter((t) => !inPackages(t, notPkg));
  }
  const shards = args.get('numShards');
  const index = args.get('shardIndex');
  if (shards !== undefined || index !== undefined) {
    const n = Number(shards);
    const i = Number(index);
    if (!Number.isInteger(n) || !Number.isInteger(i) || n < 1 || i < 0 || i >= n) {
      return {
        error: `java.lang.IllegalArgumentException: Invalid sharding parameters: numShards=${shards ?? ''}, shardIndex=${index ?? ''}`,
      };
    }
    out = out.filter((t) => Math.abs(javaHash(`${t.method}(${t.className})`)) % n === i);
  }
  return { tests: out };
}
