/**
 * launchApp (maestro-orchestra YamlLaunchApp, LaunchAppCommand; v1.39.10): the app stopped first
 * unless `stopApp: false`, its data cleared when `clearState: true`, then started. Its short form
 * names the app; bare, the flow's own.
 */
import { appOf, bool, only } from './read.js';
import { command } from './command.js';

export const launchApp = command({
  names: ['launchApp'],
  read: (v, map, at) => {
    only(map, ['appId', 'url', 'clearState', 'stopApp'], at);
    return {
      op: 'launch' as const,
      appId: appOf(v, map, at),
      clearState: (map && bool(map['clearState'], at.where, 'clearState')) ?? false,
      stopApp: (map && bool(map['stopApp'], at.where, 'stopApp')) ?? true,
    };
  },
  run: async (op, { device }) => {
    if (op.stopApp || op.clearState) {
      await device.ask('device.restart_app', {
        serial: device.serial,
        package: op.appId,
        clear_data: op.clearState,
        scope: device.scope,
      });
    } else {
      await device.ask('device.launch_app', { serial: device.serial, package: op.appId });
    }
  },
  writes: ['launch'],
  write: (step, w) => {
    const own = step.package === w.appId;
    return own && !step.clear_state
      ? 'launchApp'
      : {
          launchApp: {
            ...(own ? {} : { appId: step.package }),
            ...(step.clear_state ? { clearState: true } : {}),
          },
        };
  },
});
