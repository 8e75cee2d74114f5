/**
 * takeScreenshot (YamlTakeScreenshot; v1.39.10): a PNG of the screen, named by the flow — saved in
 * the run's folder for the device, never a path of the flow's choosing.
 */
import { FlowError, only, str } from './read.js';
import { command } from './command.js';

export const takeScreenshot = command({
  names: ['takeScreenshot'],
  read: (v, map, at) => {
    only(map, ['path'], at);
    const name = map ? str(map['path'], at.where, 'path') : str(v, at.where, 'takeScreenshot');
    const base = name.replace(/\.png$/i, '');
    if (!/^[\w-][\w.-]{0,99}$/.test(base)) {
      throw new FlowError(
        `${at.where}: a screenshot's name is letters, digits, dot, dash or underscore (no folders)`,
      );
    }
    return { op: 'screenshot' as const, name: base };
  },
  run: async (op, { device }) => {
    await device.saveScreenshot(op.name, 'png');
  },
});
