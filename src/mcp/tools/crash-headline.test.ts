import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { retracedHeadline, shortTrace } from './crash-headline.js';

const r8 = (name: string): string =>
  readFileSync(new URL(`../../../tests/fixtures/retrace/r8/${name}/expected.txt`, import.meta.url), 'utf8');

describe('retracedHeadline', () => {
  it("names the last Caused by: of R8's retraced output, and the app's first frame", () => {
    // R8's own expected retrace output (tests/fixtures/retrace/r8, from R8's test suite).
    expect(retracedHeadline(r8('AmbiguousStackTrace'), 'com.android.tools.r8')).toBe(
      'Root cause: com.android.tools.r8.CompilationException: foo[parens](Source:3) — at com.android.tools.r8.R8.bar(R8.java)',
    );
  });

  it("names the frame outside the platform where the app called in, else the root cause's first frame", () => {
    const trace = [
      'java.lang.IllegalStateException: Could not compute the cart total',
      '\tat com.example.shop.Cart.total(Cart.kt:12)',
      'Caused by: java.lang.NumberFormatException: For input string: "x"',
      '\tat java.lang.Integer.parseInt(Integer.java:747)',
      '\t... 14 more',
    ].join('\n');
    // The cause's own frames are all the platform's (the app's are elided into "... 14 more").
    for (const pkg of ['org.other', 'com.example.shop']) {
      expect(retracedHeadline(trace, pkg)).toBe(
        'Root cause: java.lang.NumberFormatException: For input string: "x" — at com.example.shop.Cart.total(Cart.kt:12)',
      );
    }
    const platformOnly = trace.replace(
      'com.example.shop.Cart.total(Cart.kt:12)',
      'android.os.Looper.loop(Looper.java:294)',
    );
    expect(retracedHeadline(platformOnly, 'com.example.shop')).toBe(
      'Root cause: java.lang.NumberFormatException: For input string: "x" — at java.lang.Integer.parseInt(Integer.java:747)',
    );
  });

  it("names the root cause's own frame, obfuscated, not the outer exception's app frame (issue 69)", () => {
    const trace = [
      'java.lang.IllegalStateException: Could not compute the cart total for demo',
      '\tat a.a.b(SourceFile:6)',
      '\tat com.droidbus.sample.HomeActivity.q(SourceFile:2)',
      'Caused by: a.d: No price for sku DEMO-42',
      '\tat a.c.a(SourceFile:4)',
      '\tat a.a.b(SourceFile:4)',
      '\t... 14 more',
    ].join('\n');
    expect(retracedHeadline(trace, 'com.droidbus.sample')).toBe(
      'Root cause: a.d: No price for sku DEMO-42 — at a.c.a(SourceFile:4)',
    );
  });

  it('is null for a trace without a Java exception (a native backtrace)', () => {
    expect(retracedHeadline('#00 pc 000000000004f2a4  /system/lib64/libc.so (abort+164)', 'a.b')).toBeNull();
  });
});

describe('shortTrace', () => {
  const fixture = (name: string): string =>
    readFileSync(new URL(`../../../tests/fixtures/logcat/${name}`, import.meta.url), 'utf8').trimEnd();

  it("keeps the exceptions, their throw sites and the app's frames of a real crash, collapsing the rest", () => {
    // A real crash as Studio copies it (tests/fixtures/logcat/SOURCES.md: fclogcat issue 1).
    const { text, hidden } = shortTrace(fixture('raw-trace-fclogcat.txt'));
    expect(text.split('\n')).toEqual([
      'FATAL EXCEPTION: main',
      ' Process: com.alcatraz.fclogcat, PID: 27729',
      ' java.lang.RuntimeException: Unable to start activity ComponentInfo{com.alcatraz.fclogcat/com.alcatraz.fclogcat.LogViewer}: java.lang.NullPointerException',
      ' \tat android.app.ActivityThread.performLaunchActivity(ActivityThread.java:2767)',
      ' \t… 9 framework frames',
      ' Caused by: java.lang.NullPointerException',
      ' \tat java.io.File.<init>(File.java:262)',
      ' \tat com.alcatraz.fclogcat.LogViewer.initViews(LogViewer.java:237)',
      ' \tat com.alcatraz.fclogcat.LogViewer.onCreate(LogViewer.java:59)',
      ' \t… 3 framework frames',
      ' \t... 9 more',
    ]);
    expect(hidden).toBe(12);
  });

  it('leaves a trace of app frames only as it was', () => {
    const trace =
      'java.lang.IllegalStateException: x\n\tat a.a.b(SourceFile:6)\n\tat a.b.onClick(SourceFile:1)';
    expect(shortTrace(trace)).toEqual({ text: trace, hidden: 0 });
  });
});
