import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REQUESTS } from '../../src/bus/registry.js';
import { renderRequestTable, withRequestTable } from '../../src/bus/request-table.js';
import { ROOT } from '../helpers/paths.js';

describe('bus request names', () => {
  it('say where each request goes: `<actor>.<verb>`, the verb lower_snake_case', () => {
    const wrong = Object.entries(REQUESTS)
      .filter(([type, def]) => !new RegExp(`^${def.actor}\\.[a-z][a-z0-9_]*$`).test(type))
      .map(([type, def]) => `${type} → ${def.actor}`);
    expect(wrong).toEqual([]);
  });

  it("match docs/ARCHITECTURE.md's request table, generated from the registry (run `npm run docs`)", () => {
    const committed = readFileSync(path.join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');
    expect(committed).toBe(withRequestTable(committed, renderRequestTable()));
    expect(committed).toContain(`| \`device.ui_find\` | device/‹key› |`);
  });
});
