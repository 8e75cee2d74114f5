import { describe, expect, it } from 'vitest';
import { ElementsCache } from './helper-elements.js';
import { HttpError } from './helper-http.js';
import { F, node, type ViewNode } from './ui/view.js';

const PKG = 'com.droidbus.sample';
const app: ViewNode = node('android.widget.FrameLayout', PKG, [0, 0, 1080, 2400], {
  children: [
    node('android.widget.LinearLayout', PKG, [0, 200, 1080, 1200], {
      id: `${PKG}:id/login_form`,
      children: [
        node('android.widget.EditText', PKG, [40, 240, 1040, 380], {
          id: `${PKG}:id/username`,
          text: 'Username',
        }),
        node('android.widget.EditText', PKG, [40, 420, 1040, 560], {
          id: `${PKG}:id/password`,
          text: 'Password',
        }),
        node('android.widget.Button', PKG, [40, 600, 1040, 720], {
          id: `${PKG}:id/sign_in`,
          text: 'Sign in',
          desc: 'Sign in button',
          flags: F.ENABLED | F.CLICKABLE,
        }),
      ],
    }),
  ],
});
const dialog = node('android.widget.FrameLayout', 'android', [60, 900, 1020, 1300], {
  children: [node('android.widget.Button', 'android', [100, 1200, 500, 1280], { text: 'Allow' })],
});
const windows = [app, dialog];

function found(strategy: string, selector: string, multiple = true): string[] {
  const cache = new ElementsCache();
  return cache.find(windows, strategy, selector, PKG, multiple).map((id) => cache.resolve(windows, id).text);
}

describe("the simulated server's element finding", () => {
  it('finds by id (a bare id is the current app’s), accessibility id and class name', () => {
    expect(found('id', `${PKG}:id/username`)).toEqual(['Username']);
    expect(found('id', 'password')).toEqual(['Password']);
    expect(found('accessibility id', 'Sign in button')).toEqual(['Sign in']);
    expect(found('class name', 'android.widget.Button')).toEqual(['Sign in', 'Allow']);
  });

  it('evaluates the XPath subset over every window, in document order', () => {
    expect(found('xpath', '//*[@resource-id="com.droidbus.sample:id/sign_in"]')).toEqual(['Sign in']);
    expect(found('xpath', "//android.widget.EditText[@text='Password']")).toEqual(['Password']);
    expect(found('xpath', '//android.widget.EditText[2]')).toEqual(['Password']);
    expect(found('xpath', '//android.widget.Button[contains(@text, "ll") and @package="android"]')).toEqual([
      'Allow',
    ]);
    expect(found('xpath', '//*[starts-with(@resource-id,"com.droidbus")][@clickable="true"]')).toEqual([
      'Sign in',
    ]);
    expect(
      found(
        'xpath',
        '/hierarchy/android.widget.FrameLayout/android.widget.LinearLayout/*[text()="Username"]',
      ),
    ).toEqual([]);
    expect(
      found('xpath', '/android.widget.FrameLayout/android.widget.LinearLayout/*[text()="Username"]'),
    ).toEqual(['Username']);
  });

  it('reads a UiSelector chain', () => {
    expect(
      found('-android uiautomator', 'new UiSelector().className("android.widget.Button").text("Allow")'),
    ).toEqual(['Allow']);
    expect(
      found('-android uiautomator', 'new UiSelector().resourceId("com.droidbus.sample:id/username")'),
    ).toEqual(['Username']);
  });

  it('answers as the server does when nothing matches or the selector is beyond the subset', () => {
    expect(found('id', 'nothing')).toEqual([]);
    const none = (() => {
      try {
        found('id', 'nothing', false);
        return null;
      } catch (err) {
        return err as HttpError;
      }
    })();
    expect([none?.status, none?.error]).toEqual([404, 'no such element']);
    for (const bad of ['//*[last()]', 'android.widget.Button', '//*[@text="x"']) {
      expect(() => found('xpath', bad)).toThrow(HttpError);
    }
    expect(() => found('css selector', 'a')).toThrow(/Locator Strategy 'css selector' is not supported/);
  });

  it('names an element gone from its place as stale', () => {
    const cache = new ElementsCache();
    const [id] = cache.find(windows, 'id', 'sign_in', PKG, false);
    expect(() => cache.resolve([app], id!)).not.toThrow();
    expect(() => cache.resolve([dialog], id!)).toThrow(/does not exist in DOM anymore/);
  });
});
