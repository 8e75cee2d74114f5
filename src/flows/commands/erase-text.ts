/**
 * eraseText (YamlEraseText, EraseTextCommand; v1.39.10): characters deleted at the end of the
 * focused field — Orchestra.MAX_ERASE_CHARACTERS (50) when no count is given.
 */
import { millis, only } from './read.js';
import { command } from './command.js';

/** Orchestra.MAX_ERASE_CHARACTERS. */
const MAX_ERASE_CHARACTERS = 50;

export const eraseText = command({
  names: ['eraseText'],
  read: (v, map, at) => {
    only(map, ['charactersToErase'], at);
    const n = map ? map['charactersToErase'] : v;
    return {
      op: 'erase' as const,
      count:
        n === null || n === undefined
          ? MAX_ERASE_CHARACTERS
          : Math.max(1, Math.min(1000, millis(n, 0, at.where, 'charactersToErase'))),
    };
  },
  run: async (op, { device }) => {
    await device.input({ action: 'erase', count: op.count });
  },
  writes: ['erase'],
  write: (step) => (step.characters === null ? 'eraseText' : { eraseText: step.characters }),
});
