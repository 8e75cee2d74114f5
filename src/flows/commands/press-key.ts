/**
 * pressKey and back (YamlPressKey, PressKeyCommand, BackPressCommand; v1.39.10): one key by Maestro's
 * name for it (maestro-keys.ts: KeyCode.getByName, AndroidDriver.pressKey's codes); `back` is the
 * BACK key. A recorded key Maestro has no name for is kept as a comment.
 */
import { androidKeyOf, MAESTRO_KEY_NAMES, maestroKeyOf } from '../maestro-keys.js';
import { FlowError, only, str } from './read.js';
import { command } from './command.js';

export const pressKey = command({
  names: ['pressKey', 'back'],
  read: (v, map, at) => {
    if (at.name === 'back') {
      only(map, [], at);
      return { op: 'key' as const, key: 'KEYCODE_BACK' };
    }
    only(map, ['key'], at);
    const keyName = map ? str(map['key'], at.where, 'key') : str(v, at.where, 'pressKey');
    const key = androidKeyOf(keyName);
    if (key === null) {
      throw new FlowError(
        `${at.where}: unknown key name ${JSON.stringify(keyName.slice(0, 40))}; Maestro's are ${MAESTRO_KEY_NAMES.join(', ')}`,
      );
    }
    return { op: 'key' as const, key };
  },
  run: async (op, { device }) => {
    await device.input({ action: 'key', key: op.key });
  },
  writes: ['key'],
  write: (step, w) => {
    if (step.key === 'KEYCODE_BACK') {
      return 'back';
    }
    const name = maestroKeyOf(step.key);
    if (name === null) {
      w.note(`pressed ${step.key}, a key Maestro cannot press`);
      return null;
    }
    return { pressKey: name };
  },
});
