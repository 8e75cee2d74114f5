/**
 * The sample's debug build as the WebView tests need it: debuggable (so its WebView opens a
 * devtools socket), every sample activity exported (launched by `am start -n` from the shell), and
 * `page` as the WebActivity's `assets/web/sign-in.html`.
 */
import { SAMPLE_ACTIVITIES, SAMPLE_PACKAGE, SAMPLE_WEB_PAGE } from '../../src/sim/index.js';
import { writeApk } from '../../src/util/apk.js';

export const WEBVIEW_DEBUG_PACKAGE = `${SAMPLE_PACKAGE}.demo.debug`;
export const SAMPLE_WEB_ACTIVITY = SAMPLE_ACTIVITIES.find((a) => a.endsWith('.WebActivity'))!;

export function debugSampleApk(page: string = SAMPLE_WEB_PAGE): Uint8Array {
  return writeApk({
    packageName: WEBVIEW_DEBUG_PACKAGE,
    versionCode: 42,
    versionName: '1.4.2',
    minSdk: 24,
    targetSdk: 35,
    debuggable: true,
    label: 'Droidbus Sample',
    activities: SAMPLE_ACTIVITIES.map((name, i) => ({ name, launcher: i === 0, exported: true })),
    extraEntries: [{ name: 'assets/web/sign-in.html', data: page }],
  });
}
