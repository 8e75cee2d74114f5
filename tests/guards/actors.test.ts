/**
 * The contract and the actor kinds agree: every request names an actor that exists (a kind of
 * ACTOR_KINDS, or the host process's own 'host'), every kind serves at least one request, and each
 * kind's module is there to load.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ACTOR_KINDS } from '../../src/actors/kinds.js';
import { REQUESTS } from '../../src/bus/registry.js';

const served = new Set(Object.values(REQUESTS).map((r) => r.actor as string));

describe('actor kinds', () => {
  it('serve every request the contract names an actor for', () => {
    const unknown = Object.entries(REQUESTS)
      .filter(([, r]) => !(r.actor in ACTOR_KINDS) && r.actor !== 'host')
      .map(([type, r]) => `${type} → ${r.actor}`);
    expect(unknown).toEqual([]);
  });

  it('each serve a request, from a module that exists', () => {
    for (const [kind, config] of Object.entries(ACTOR_KINDS)) {
      expect(served.has(kind), `${kind} serves no request`).toBe(true);
      const source = fileURLToPath(config.module).replace(/\.js$/, '.ts');
      expect(existsSync(source), source).toBe(true);
    }
  });
});
