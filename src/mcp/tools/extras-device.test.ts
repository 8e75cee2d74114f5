import { describe, expect, it } from 'vitest';
import { variantMarks } from './extras-device.js';

describe('list_apps lines', () => {
  it('tells apart the variants that share a label (issue 69), and marks nothing else', () => {
    const marks = variantMarks([
      { label: 'Droidbus Sample', package: 'com.droidbus.sample' },
      { label: 'Droidbus Sample', package: 'com.droidbus.sample.demo' },
      { label: 'Droidbus Sample', package: 'com.droidbus.sample.demo.debug' },
      { label: 'Settings', package: 'com.android.settings' },
      { label: null, package: 'com.example.nolabel' },
    ]);
    expect(Object.fromEntries(marks)).toEqual({
      'com.droidbus.sample': ' [base]',
      'com.droidbus.sample.demo': ' [.demo]',
      'com.droidbus.sample.demo.debug': ' [.demo.debug]',
    });
  });
});
