import { describe, expect, it } from 'vitest';
import { parseImeShown } from './ime-state.js';

// The layouts AOSP prints (InputMethodManagerService.dump, ImeVisibilityStateComputer.dump), as the
// public captures quoted in appium-adb's tests and in adb scripts show them.
describe('parseImeShown', () => {
  it('reads mInputShown from an Android 10-13 dump, where it shares a line with mShowRequested', () => {
    const dump = [
      'Current Input Method Manager state:',
      '  mCurMethodId=com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME',
      '  mInputShown=true mShowRequested=true mShowExplicitlyRequested=false mShowForced=false',
      '  mInFullscreenMode=false',
    ].join('\n');
    expect(parseImeShown(dump)).toBe(true);
    expect(parseImeShown(dump.replace('mInputShown=true', 'mInputShown=false'))).toBe(false);
  });

  it("reads the Android 14+ line of ImeVisibilityStateComputer's own section", () => {
    const dump = '  mImeHiddenByDisplayPolicy=false\n  mInputShown=false\n  mLastImeTargetWindow=null\n';
    expect(parseImeShown(dump)).toBe(false);
  });

  it('says shown when any of several sections shows the keyboard', () => {
    expect(parseImeShown('  mInputShown=false\n…\n  mInputShown=true\n')).toBe(true);
  });

  it('is null when the dump has no mInputShown (a permission denial, an OEM layout)', () => {
    expect(parseImeShown("Permission Denial: can't dump InputMethodManager")).toBeNull();
    expect(parseImeShown('  mIsInputViewShown=true\n')).toBeNull();
  });
});
