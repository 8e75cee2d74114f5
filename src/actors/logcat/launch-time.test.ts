import { describe, expect, it } from 'vitest';
import { launchTimesOf } from './launch-time.js';

const displayedOf = (text: string, pkg: string) => launchTimesOf(text, pkg).displayed;

// Message forms as devices log them: `Displayed org.thoughtcrime.securesms/.ConversationListActivity:
// +659ms` (ActivityManager, signalapp/Signal-Android#667) and the Android 14 `for user 0` form;
// `Fully drawn com.google.samples.apps.iosched/.ui.MainActivity: +3s493ms` (ActivityTaskManager,
// logged by reportFullyDrawn(), quoted in google/iosched#351).
const LOG = [
  '--------- beginning of main',
  '03-15 10:00:00.000  1490  1512 I ActivityManager: Displayed org.thoughtcrime.securesms/.ConversationListActivity: +659ms',
  '03-15 10:00:01.000  1490  1512 I ActivityTaskManager: Displayed com.example.app.debug/com.example.app.MainActivity for user 0: +812ms',
  '03-15 10:00:02.000  1490  1512 I ActivityTaskManager: Displayed com.example.app/.MainActivity for user 0: +1s234ms (total +1s500ms)',
  '03-15 10:00:03.000  3333  3333 I SomeApp: Displayed com.example.app/.Fake: +5ms',
  '03-15 10:00:04.000  1490  1512 I ActivityTaskManager: Displayed com.google.samples.apps.iosched/.ui.MainActivity: +1s95ms',
  '03-15 10:00:06.000  1490  1512 I ActivityTaskManager: Fully drawn com.google.samples.apps.iosched/.ui.MainActivity: +3s493ms',
  '03-15 10:00:07.000  3333  3333 I SomeApp: Fully drawn com.example.app/.Fake: +5ms',
].join('\n');

describe('the Displayed line of one package', () => {
  it('takes the newest line of exactly that package, from either tag', () => {
    expect(displayedOf(LOG, 'com.example.app')).toMatchObject({
      ms: 1234,
      total_ms: 1500,
      component: 'com.example.app/.MainActivity',
      tag: 'ActivityTaskManager',
    });
    expect(displayedOf(LOG, 'com.example.app.debug')).toMatchObject({ ms: 812, total_ms: null });
    expect(displayedOf(LOG, 'org.thoughtcrime.securesms')).toMatchObject({ ms: 659, tag: 'ActivityManager' });
  });

  it('finds nothing for a package whose name only starts another', () => {
    expect(displayedOf(LOG, 'com.example')).toBeNull();
    expect(displayedOf('', 'com.example.app')).toBeNull();
  });
});

describe('the Fully drawn line of one package', () => {
  it('comes with the Displayed line when the app reported it, from the system tags only', () => {
    expect(launchTimesOf(LOG, 'com.google.samples.apps.iosched')).toMatchObject({
      displayed: { ms: 1095 },
      fully_drawn: {
        ms: 3493,
        component: 'com.google.samples.apps.iosched/.ui.MainActivity',
        tag: 'ActivityTaskManager',
      },
    });
    expect(launchTimesOf(LOG, 'com.example.app').fully_drawn).toBeNull();
  });
});
