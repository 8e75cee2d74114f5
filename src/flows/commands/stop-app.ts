/**
 * stopApp and killApp (YamlStopApp, YamlKillApp; AndroidDriver.stopApp / killApp; v1.39.10):
 * stopApp force-stops the app (`am force-stop`); killApp is `am kill`, the process death the system
 * deals a background app — its saved state survives, and an app in front is left running, as on a
 * phone. Both through the same package scope as stop_app.
 */
import { appOf, only } from './read.js';
import { command } from './command.js';

export const stopApp = command({
  names: ['stopApp', 'killApp'],
  read: (v, map, at) => {
    only(map, ['appId'], at);
    return {
      op: 'stop' as const,
      appId: appOf(v, map, at),
      ...(at.name === 'killApp' ? { how: 'kill' as const } : {}),
    };
  },
  run: async (op, { device }) => {
    await device.ask('device.stop_app', {
      serial: device.serial,
      package: op.appId,
      scope: device.scope,
      ...(op.how ? { how: op.how } : {}),
    });
  },
  writes: ['stop'],
  write: (step, w) => (step.package === w.appId ? 'stopApp' : { stopApp: step.package }),
});
