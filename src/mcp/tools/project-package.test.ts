import { describe, expect, it } from 'vitest';
import { queryNamesMine } from './project-package.js';

describe('queryNamesMine', () => {
  it('finds package:mine and app:mine wherever a term may stand', () => {
    for (const q of [
      'package:mine',
      'level:error package:mine',
      '-package:mine',
      '(app:mine | tag:Foo)',
      'package=:mine',
    ]) {
      expect(queryNamesMine(q), q).toBe(true);
    }
  });

  it('ignores mine as a value of other keys or inside words', () => {
    for (const q of ['message:mine', 'tag:package:mine2', 'package:mineral', 'mine', 'text package: mine']) {
      expect(queryNamesMine(q), q).toBe(false);
    }
  });
});
