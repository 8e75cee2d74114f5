import { describe, expect, it } from 'vitest';
import { parseWebViewError } from './crash-detect.js';

// Lines phones logged under `I chromium`, quoted in public projects (a Cordova app's metro.html
// bridge error; a JsCallback page's syntax error with no source).
describe("a WebView's uncaught JavaScript error in logcat", () => {
  it('is read from its console line: exception, message, source and line', () => {
    expect(
      parseWebViewError(
        '[INFO:CONSOLE(53)] "Uncaught TypeError: window.jsObj.HtmlcallJava2 is not a function", source: file:///android_asset/metro.html (53)',
      ),
    ).toEqual({
      exception: 'TypeError',
      message: 'window.jsObj.HtmlcallJava2 is not a function',
      source: 'file:///android_asset/metro.html',
      line: 53,
    });
    expect(
      parseWebViewError('[INFO:CONSOLE(1)] "Uncaught SyntaxError: Unexpected identifier", source: (1)'),
    ).toEqual({
      exception: 'SyntaxError',
      message: 'Unexpected identifier',
      source: '',
      line: 1,
    });
  });

  it('leaves ordinary console lines alone', () => {
    expect(
      parseWebViewError('[INFO:CONSOLE(501)] "🔍 Debug: typeof window.ChimeSDK = undefined"'),
    ).toBeNull();
    expect(
      parseWebViewError(
        '[INFO:CONSOLE(5)] "touchend():Audio Error: 1", source: file:///android_asset/www/dist/all.js (5)',
      ),
    ).toBeNull();
  });
});
