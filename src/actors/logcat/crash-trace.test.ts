import { describe, expect, it } from 'vitest';
import {
  emptyNativeTrace,
  parseFatalSignal,
  parseJavaTrace,
  parseTombstone,
  splitThrowable,
} from './crash-trace.js';
import { parseLogcat } from './logcat-parse.js';
import { fixture } from './test-fixtures.js';

describe('Java traces', () => {
  it('reads the Caused by chain and its `... N more` from a copied crash message', () => {
    const lines = fixture('raw-trace-fclogcat.txt').trimEnd().split('\n');
    const t = parseJavaTrace(lines);
    expect(t).toMatchObject({ thread: 'main', process: 'com.alcatraz.fclogcat', pid: 27729 });
    expect(t.top?.exception).toBe('java.lang.RuntimeException');
    expect(t.top?.message).toBe(
      'Unable to start activity ComponentInfo{com.alcatraz.fclogcat/com.alcatraz.fclogcat.LogViewer}: java.lang.NullPointerException',
    );
    expect(t.top?.frames).toHaveLength(10);
    expect(t.causes).toHaveLength(1);
    expect(t.causes[0]).toMatchObject({
      exception: 'java.lang.NullPointerException',
      message: null,
      more: 9,
    });
    expect(t.causes[0]?.frames[1]).toBe('com.alcatraz.fclogcat.LogViewer.initViews(LogViewer.java:237)');
  });

  it('reads a cause chain logged without its header', () => {
    const messages = parseLogcat(fixture('time-colon-holoeverywhere-cause.txt')).entries.map(
      (e) => e.message,
    );
    const t = parseJavaTrace(messages);
    expect(t.top).toBeNull();
    expect(t.causes).toHaveLength(1);
    expect(t.causes[0]?.frames).toHaveLength(6);
    expect(t.causes[0]?.frames[2]).toBe(
      'biz.mdws.apps.rabatt.fm.MainActivity.onCreate(MainActivity.java:13)',
    );
    expect(t.causes[0]?.more).toBe(11);
  });

  it('reads suppressed exceptions, their causes, and multi-line messages', () => {
    // Laid out as java.lang.Throwable.printStackTrace prints them, with AndroidRuntime's header.
    const t = parseJavaTrace([
      'FATAL EXCEPTION: DefaultDispatcher-worker-1',
      'Process: com.example.app, PID: 4021',
      'java.io.IOException: write failed',
      'second line of the message',
      '\tat com.example.app.Store.save(Store.kt:10)',
      '\tSuppressed: java.lang.IllegalStateException: close failed',
      '\t\tat com.example.app.Store.close(Store.kt:20)',
      '\tCaused by: java.lang.RuntimeException: disk gone',
      '\t\t... 1 more',
      'Caused by: android.system.ErrnoException: write failed: ENOSPC (No space left on device)',
      '\tat libcore.io.Linux.writeBytes(Native Method)',
      '\t... 3 more',
    ]);
    expect(t.thread).toBe('DefaultDispatcher-worker-1');
    expect(t.top?.message).toBe('write failed\nsecond line of the message');
    expect(t.top?.frames).toEqual(['com.example.app.Store.save(Store.kt:10)']);
    expect(t.top?.suppressed[0]).toMatchObject({
      exception: 'java.lang.IllegalStateException',
      frames: ['com.example.app.Store.close(Store.kt:20)'],
    });
    expect(t.top?.suppressed[0]?.suppressed[0]?.exception).toBe('java.lang.RuntimeException');
    expect(t.causes.map((c) => [c.exception, c.more])).toEqual([['android.system.ErrnoException', 3]]);
  });

  it('tells exception types from other text', () => {
    expect(splitThrowable('kotlin.KotlinNullPointerException')).toEqual({
      exception: 'kotlin.KotlinNullPointerException',
      message: null,
    });
    expect(splitThrowable('android.view.WindowManager$BadTokenException: Unable to add window')).toEqual({
      exception: 'android.view.WindowManager$BadTokenException',
      message: 'Unable to add window',
    });
    expect(splitThrowable('Process: com.example, PID: 1')).toBeNull();
    expect(splitThrowable('Shutting down VM')).toBeNull();
  });
});

describe('native traces', () => {
  it('reads the libc Fatal signal line in its three historic forms', () => {
    const a = emptyNativeTrace();
    parseFatalSignal(
      'Fatal signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0 in tid 14110 (downloader.demo), pid 13915 (downloader.demo)',
      a,
    );
    expect(a).toMatchObject({
      signal: 'SIGSEGV',
      signal_number: 11,
      signal_code: 'SEGV_MAPERR',
      fault_addr: '0x0',
      tid: 14110,
      pid: 13915,
      thread: 'downloader.demo',
    });
    const b = emptyNativeTrace();
    parseFatalSignal('Fatal signal 11 (SIGSEGV), code 1, fault addr 0x0 in tid 2363 (com.hlw.movie)', b);
    expect(b).toMatchObject({ signal_code: '1', fault_addr: '0x0', tid: 2363, pid: -1 });
    // The pre-Lollipop form, from the title of android/ndk-samples#414.
    const c = emptyNativeTrace();
    parseFatalSignal('Fatal signal 11 (SIGSEGV) at 0x00000000 (code=1), thread 13692 (.itsec.droneapp', c);
    expect(c).toMatchObject({
      signal: 'SIGSEGV',
      fault_addr: '0x00000000',
      tid: 13692,
      thread: '.itsec.droneapp',
    });
    expect(parseFatalSignal('crash_dump helper failed to exec', emptyNativeTrace())).toBe(false);
  });

  it('reads a tombstone file: process, signal, abort message and the first backtrace only', () => {
    const t = parseTombstone(fixture('tombstone-vortek.txt').split('\n'), emptyNativeTrace());
    expect(t).toMatchObject({
      pid: 17035,
      tid: 18446,
      thread: 'Thread-100',
      process: 'app.gamenative',
      signal: 'SIGABRT',
      signal_number: 6,
      signal_code: 'SI_QUEUE',
      fault_addr: '--------',
      abort_message: 'Scudo ERROR: corrupted chunk header at address 0x200006fb9967950',
      abi: 'arm64',
    });
    expect(t.frames).toHaveLength(11);
    expect(t.frames[5]).toMatch(/libvortekrenderer\.so \(ShaderInspector_inspectShaderStages\+952\)/);
  });
});
