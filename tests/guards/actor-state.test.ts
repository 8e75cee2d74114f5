/**
 * Device state lives in the device actor that owns the device, never in a module: a module-level
 * collection keyed by serial outlives the actor (a device that left and came back finds stale
 * links), is shared by every device a worker thread hosts, and cannot be reset by the actor that
 * knows the device changed — a bug already came from exactly that (the helper's links). A
 * module-level Map or Set under src/actors starts empty only when it is a cache of something that
 * is not a device's, listed here with why.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';
import { sourceFiles } from '../helpers/source-files.js';

const ALLOWED: Record<string, string> = {
  'src/actors/project/project-actor.ts:summaries': 'project summaries by project root and build-file stamps',
  'src/actors/build/build-env.ts:javaCache': 'the java found for a JAVA_HOME, not a device',
  'src/actors/build/task-policy.ts:leavingListed': 'a WeakMap on task lists, collected with them',
};

describe('module-level state under src/actors', () => {
  it('holds no collection that starts empty (per-device state belongs to the device actor)', () => {
    const found: string[] = [];
    const allowedSeen = new Set<string>();
    for (const file of sourceFiles(path.join(ROOT, 'src', 'actors'))) {
      const relative = path.relative(ROOT, file).split(path.sep).join('/');
      const text = readFileSync(file, 'utf8');
      // A top-level declaration (column 0) made from an empty collection: `new Map<…>()`, `new Set()`.
      for (const m of text.matchAll(
        /^(?:export )?(?:const|let) (\w+)(?::[^=\n]+)? = new (?:Map|Set|WeakMap|WeakSet)\b(?:<[^()]*?>)?\(\s*\)/gm,
      )) {
        const key = `${relative}:${m[1]}`;
        if (key in ALLOWED) {
          allowedSeen.add(key);
        } else {
          found.push(key);
        }
      }
    }
    expect(found).toEqual([]);
    // Every exception still exists: the list shrinks with the code.
    expect([...allowedSeen].sort()).toEqual(Object.keys(ALLOWED).sort());
  });
});
