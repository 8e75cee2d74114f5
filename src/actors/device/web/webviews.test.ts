import { describe, expect, it } from 'vitest';
import { pageOf, parseDevtoolsSockets } from './webviews.js';

describe('devtools sockets in /proc/net/unix', () => {
  it("finds WebViews' and browsers' sockets, each once, with the pid in the name", () => {
    // Rows as phones print them, quoted in public tools' tests (an Android CDP bridge's discovery
    // test; Chromium's own adb_client test for the header and system sockets).
    const listing = [
      'Num       RefCount Protocol Flags    Type St Inode Path',
      '00000000: 00000002 00000000 00010000 0001 01  5394 /dev/socket/vold',
      '0000000000000000: 00000002 00000000 00000000 0001 02     0 @chrome_devtools_remote',
      '0000000000000000: 00000002 00000000 00010000 0001 01 12815382 @stetho_com.google.android.apps.messaging_devtools_remote',
      '0000000000000000: 00000002 00000000 00010000 0001 01 13204451 @chrome_devtools_remote_2730',
      '0000000000000000: 00000002 00000000 00010000 0001 01 13204452 @com.brave.browser_devtools_remote_4242',
      '0000000000000000: 00000002 00000000 00010000 0001 01 12345 @webview_devtools_remote_4012',
      '0000000000000000: 00000002 00000000 00010000 0001 01 12347 @webview_devtools_remote_4012',
      '0000000000000000: 00000002 00000000 00010000 0001 01  1047 @jdwp-control',
    ].join('\n');
    expect(parseDevtoolsSockets(listing)).toEqual([
      { socket: 'chrome_devtools_remote', pid: null },
      { socket: 'stetho_com.google.android.apps.messaging_devtools_remote', pid: null },
      { socket: 'chrome_devtools_remote_2730', pid: 2730 },
      { socket: 'com.brave.browser_devtools_remote_4242', pid: 4242 },
      { socket: 'webview_devtools_remote_4012', pid: 4012 },
    ]);
  });
});

describe('a /json/list entry', () => {
  it("takes the WebView's place on screen from its description, a JSON string", () => {
    // A phone's WebView page (io.appium.android.apis, Android 10), as curl through adb forward printed it.
    const page = pageOf({
      description:
        '{"attached":true,"empty":false,"height":2408,"never_attached":false,"screenX":0,"screenY":292,"visible":true,"width":1228}',
      id: '51E00D7C2B3C8785879A63D98099B002',
      title: 'I am a page title',
      type: 'page',
      url: 'file:///android_asset/html/index.html',
    });
    expect(page).toEqual({
      id: '51E00D7C2B3C8785879A63D98099B002',
      title: 'I am a page title',
      url: 'file:///android_asset/html/index.html',
      type: 'page',
      attached: true,
      visible: true,
      bounds: [0, 292, 1228, 2700],
    });
    // A browser tab says nothing of its place.
    expect(
      pageOf({ description: '', id: 'x', title: 't', type: 'page', url: 'https://a' }).bounds,
    ).toBeNull();
  });
});
