/** hideKeyboard (HideKeyboardCommand; v1.39.10): the soft keyboard closed, as droidbus's input closes it. */
import { only } from './read.js';
import { command } from './command.js';

export const hideKeyboard = command({
  names: ['hideKeyboard'],
  read: (_v, map, at) => {
    only(map, [], at);
    return { op: 'hide_keyboard' as const };
  },
  run: async (_op, { device }) => {
    await device.input({ action: 'hide_keyboard' });
  },
  writes: ['hide_keyboard'],
  write: () => 'hideKeyboard',
});
