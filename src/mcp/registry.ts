import type { ToolDefinition } from './define-tool.js';
import { appStateTools } from './tools/app-state.js';
import { frameStatsTools } from './tools/frame-stats.js';
import { runTools } from './tools/build.js';
import { buildStatusTools } from './tools/build-status.js';
import { deviceTools } from './tools/device.js';
import { logcatTools } from './tools/logcat.js';
import { crashTools } from './tools/crashes.js';
import { projectTools } from './tools/project.js';
import { uiTools } from './tools/ui-read.js';
import { waitForLog } from './tools/logcat-wait.js';
import { notificationTools } from './tools/extras-notifications.js';
import { deviceFileTools } from './tools/extras-files.js';
import { intentTools } from './tools/extras-intent.js';
import { deviceExtraTools } from './tools/extras-device.js';
import { adminAppTools } from './tools/admin.js';
import { adminDeviceTools } from './tools/admin-device.js';
import { avdTools } from './tools/admin-avd.js';
import { runConfigurationTools } from './tools/admin-run.js';
import { sessionTools } from './tools/sessions.js';
import { batch } from './tools/batch.js';
import { flowTools } from './tools/flows.js';
import { networkTools } from './tools/network.js';
import { webTools } from './tools/web.js';
import { displayConfigTools } from './tools/display-config.js';

/** Every tool of droidbus, from one file per tool family under tools/. */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  ...projectTools,
  ...deviceTools,
  ...uiTools,
  ...logcatTools,
  ...crashTools,
  ...appStateTools,
  ...frameStatsTools,
  runTools.runGradleTask,
  ...buildStatusTools,
  runTools.runTests,
  ...notificationTools,
  ...deviceFileTools,
  ...intentTools,
  ...deviceExtraTools,
  waitForLog,
  ...adminAppTools,
  ...adminDeviceTools,
  ...avdTools,
  ...runConfigurationTools,
  ...sessionTools,
  ...flowTools,
  ...networkTools,
  ...webTools,
  ...displayConfigTools,
  batch,
] as readonly ToolDefinition[];

/** A tool by name. */
export function toolByName(name: string): ToolDefinition | undefined {
  return ALL_TOOLS.find((t) => t.name === name);
}
