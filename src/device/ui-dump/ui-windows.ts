/**
 * What kind of window a top-level node tree is. `uiautomator dump --windows` says so itself
 * (`type="TYPE_INPUT_METHOD"`); the classic dump and androidx-style multi-root dumps only give the
 * package, class and bounds of each window's root node, so the kind is inferred from those.
 */
import type { UiBounds, UiWindowKind } from './ui-types.js';

/** Input method packages seen on real devices (AOSP, Gboard, vendor and popular third-party IMEs). */
const IME_PACKAGES = new Set([
  'com.android.inputmethod.latin',
  'com.google.android.inputmethod.latin',
  'com.google.android.apps.inputmethod.hindi',
  'com.google.android.inputmethod.japanese',
  'com.google.android.inputmethod.korean',
  'com.google.android.inputmethod.pinyin',
  'com.samsung.android.honeyboard',
  'com.sec.android.inputmethod',
  'com.touchtype.swiftkey',
  'com.swiftkey.swiftkeyconfigurator',
  'com.sohu.inputmethod.sogou',
  'com.sohu.inputmethod.sogou.xiaomi',
  'com.baidu.input',
  'com.baidu.input_mi',
  'com.baidu.input_huawei',
  'com.iflytek.inputmethod',
  'com.huawei.ohos.inputmethod',
  'com.tencent.wetype',
  'jp.co.omronsoft.openwnn',
  'com.android.adbkeyboard',
  'io.appium.settings',
]);

/** Packages whose windows are the system asking something (permissions, ANR/crash dialogs, installs). */
const SYSTEM_DIALOG_PACKAGES = new Set([
  'android',
  'com.android.permissioncontroller',
  'com.google.android.permissioncontroller',
  'com.android.packageinstaller',
  'com.google.android.packageinstaller',
  'com.android.systemui',
  'com.android.settings.intelligence',
]);

/** True for a package that is an input method (soft keyboard). */
export function isImePackage(pkg: string, rootClass = ''): boolean {
  return (
    IME_PACKAGES.has(pkg) ||
    rootClass === 'android.inputmethodservice.SoftInputWindow' ||
    /(^|\.)inputmethod(\.|$)/.test(pkg) ||
    /keyboard$/i.test(pkg)
  );
}

/** True for a package that shows system dialogs or system UI. */
export function isSystemPackage(pkg: string): boolean {
  return SYSTEM_DIALOG_PACKAGES.has(pkg);
}

/** Maps `AccessibilityWindowInfo.typeToString` output to a window kind. */
export function kindFromWindowType(type: string): UiWindowKind {
  switch (type) {
    case 'TYPE_APPLICATION':
      return 'application';
    case 'TYPE_INPUT_METHOD':
      return 'input_method';
    case 'TYPE_SYSTEM':
    case 'TYPE_SPLIT_SCREEN_DIVIDER':
    case 'TYPE_MAGNIFICATION_OVERLAY':
      return 'system';
    case 'TYPE_ACCESSIBILITY_OVERLAY':
      return 'accessibility_overlay';
    default:
      return 'unknown';
  }
}

/**
 * Infers a window's kind from its root node. System UI windows that are a thin strip along the top
 * or bottom edge of the screen are the status and navigation bars; other System UI windows (the
 * notification shade, volume or power dialogs) count as system windows.
 */
export function inferWindowKind(
  pkg: string,
  rootClass: string,
  bounds: UiBounds,
  screen: UiBounds,
): UiWindowKind {
  if (isImePackage(pkg, rootClass)) {
    return 'input_method';
  }
  if (pkg === 'com.android.systemui') {
    const screenHeight = Math.max(1, screen.bottom - screen.top);
    const height = bounds.bottom - bounds.top;
    if (height <= screenHeight * 0.12) {
      if (bounds.top <= screen.top) {
        return 'status_bar';
      }
      if (bounds.bottom >= screen.bottom) {
        return 'navigation_bar';
      }
    }
    return 'system';
  }
  if (isSystemPackage(pkg)) {
    return 'system';
  }
  return pkg === '' ? 'unknown' : 'application';
}
