import { describe, expect, it } from 'vitest';
import { buildMappingIndex } from './mapping-index.js';
import { retraceTrace, splitTraceLines } from './retrace-trace.js';
import { parseStackLine } from './stack-line.js';

const MAPPING = buildMappingIndex(
  [
    '# pg_map_id: 5b8d8d1',
    '# {"id":"com.android.tools.r8.mapping","version":"2.2"}',
    'com.example.Main -> a.a:',
    '    1:3:void run():10:12 -> a',
    '    4:4:void com.example.Util.check(java.lang.Object):5:5 -> a',
    '    4:4:void run():13 -> a',
    '    void foo(int) -> b',
    '    void bar(int, int) -> b',
    'com.example.Boom -> a.b:',
    'some.Class -> a.c:',
    '    4:4:void other.Class():23:23 -> a',
    '    4:4:void caller(other.Class):7 -> a',
    "    # { id: 'com.android.tools.r8.rewriteFrame', conditions: ['throws(Ljava/lang/NullPointerException;)'], actions: ['removeInnerFrames(1)'] }",
    '',
  ].join('\n'),
);

describe('retraceTrace', () => {
  it('returns the retraced text with a structured record of every frame', () => {
    const trace =
      'a.b: boom\n\tat a.a.a(SourceFile:4)\n\tat android.app.Activity.onCreate(Activity.java:10)\n';
    const result = retraceTrace(MAPPING, trace);
    expect(result.text).toBe(
      'com.example.Boom: boom\n\tat com.example.Util.check(Util.java:5)\n\tat com.example.Main.run(Main.java:13)\n' +
        '\tat android.app.Activity.onCreate(Activity.java:10)\n',
    );
    expect(result.changed).toBe(true);
    expect(result.unmappedFrames).toBe(1);
    expect(
      result.frames.map((f) => [f.index, f.kind, f.classMapped, f.methodMapped, f.output.length]),
    ).toEqual([
      [0, 'exception', true, true, 1],
      [1, 'frame', true, true, 2],
      [2, 'frame', false, false, 1],
    ]);
    expect(result.frames[1]?.candidates).toEqual([
      {
        className: 'com.example.Util',
        methodName: 'check',
        signature: 'void check(java.lang.Object)',
        sourceFile: 'Util.java',
        lineNumber: 5,
        alternative: 0,
        inlined: true,
      },
      {
        className: 'com.example.Main',
        methodName: 'run',
        signature: 'void run()',
        sourceFile: 'Main.java',
        lineNumber: 13,
        alternative: 0,
        inlined: false,
      },
    ]);
  });

  it('lists the r8-map-id of the frames so the caller can pick the mapping', () => {
    const result = retraceTrace(
      MAPPING,
      'java.lang.Error: x\n\tat a.a.a(r8-map-id-5b8d8d1:2)\n\tat a.a.a(r8-map-id-5b8d8d1:3)\n\tat x.y.z(r8-map-id-other:1)\n',
    );
    expect(result.mapIds).toEqual(['5b8d8d1', 'other']);
    expect(result.text.split('\n')[1]).toBe('\tat com.example.Main.run(Main.java:11)');
  });

  it('marks ambiguous frames and keeps every candidate', () => {
    const result = retraceTrace(MAPPING, '\tat a.a.b(Unknown Source)');
    expect(result.text).toBe(
      '\tat com.example.Main.bar(Main.java)\n\t<OR> at com.example.Main.foo(Main.java)',
    );
    expect(result.frames[0]?.ambiguous).toBe(true);
    expect(result.frames[0]?.candidates.map((c) => [c.methodName, c.alternative])).toEqual([
      ['bar', 0],
      ['foo', 1],
    ]);
  });

  it('leaves a trace with nothing to map unchanged', () => {
    const trace =
      'java.lang.IllegalStateException: x\r\n\tat android.os.Looper.loop(Looper.java:1)\r\n\t... 3 more\r\n';
    const result = retraceTrace(MAPPING, trace);
    expect(result.changed).toBe(false);
    expect(result.text).toBe(trace.replace(/\r\n/g, '\n'));
  });

  it('retraces logcat lines in place, keeping their prefix', () => {
    const prefix = '03-15 12:00:00.123  1234  1234 E AndroidRuntime: ';
    const result = retraceTrace(
      MAPPING,
      `${prefix}a.b: boom\n${prefix}\tat a.a.a(SourceFile:2)\n${prefix}Caused by: a.b: inner\n`,
    );
    expect(result.text).toBe(
      `${prefix}com.example.Boom: boom\n${prefix}\tat com.example.Main.run(Main.java:11)\n${prefix}Caused by: com.example.Boom: inner\n`,
    );
    const brief = retraceTrace(MAPPING, 'E/AndroidRuntime( 1234): \tat a.a.a(SourceFile:2)');
    expect(brief.text).toBe('E/AndroidRuntime( 1234): \tat com.example.Main.run(Main.java:11)');
  });

  it('removes inner frames only when the rewriteFrame condition holds for the thrown exception', () => {
    expect(
      retraceTrace(MAPPING, 'Exception in thread "main" java.lang.NullPointerException\n\tat a.c.a(:4)').text,
    ).toBe('Exception in thread "main" java.lang.NullPointerException\n\tat some.Class.caller(Class.java:7)');
    expect(retraceTrace(MAPPING, 'java.lang.IllegalStateException: x\n\tat a.c.a(:4)').text).toBe(
      'java.lang.IllegalStateException: x\n\tat other.Class(other.java:23)\n\tat some.Class.caller(Class.java:7)',
    );
  });

  it('retraces module-prefixed frames and keeps the prefix', () => {
    expect(retraceTrace(MAPPING, '\tat app//a.a.a(SourceFile:1)').text).toBe(
      '\tat app//com.example.Main.run(Main.java:10)',
    );
  });
});

describe('parseStackLine', () => {
  it('finds the parts of a frame as R8 does', () => {
    const p = parseStackLine('\tat a.b.c.d(SourceFile:12)');
    const part = (s: { start: number; end: number } | null): string | null =>
      s === null ? null : p.line.slice(s.start, s.end);
    expect([p.kind, part(p.className), part(p.methodName), part(p.sourceFile), part(p.lineNumber)]).toEqual([
      'frame',
      'a.b.c',
      'd',
      'SourceFile',
      ':12',
    ]);
  });

  it('reads exception headers and ignores other lines', () => {
    expect(parseStackLine('Caused by: a.b.c: msg').kind).toBe('exception');
    expect(parseStackLine('Exception in thread "main" a.b.c').kind).toBe('exception');
    expect(parseStackLine('    ... 42 more').kind).toBe('text');
    // R8 8.3's expression names a class in the last word after a colon; retrace looks it up and, as the
    // mapping does not have it, reports nothing.
    const fatal = parseStackLine('FATAL EXCEPTION: main');
    expect(fatal.line.slice(fatal.className!.start, fatal.className!.end)).toBe('main');
    expect(retraceTrace(buildMappingIndex('a.b -> c:\n'), 'FATAL EXCEPTION: main\n').frames).toEqual([]);
  });

  it('finds a logcat exception header when R8 lands on a word the mapping does not have', () => {
    const index = buildMappingIndex('com.example.Boom -> a.b:\n');
    const line = '03-15 12:00:00.123  1234  1234 E AndroidRuntime: Caused by: a.b: bad state: gone';
    expect(retraceTrace(index, line).text).toBe(
      '03-15 12:00:00.123  1234  1234 E AndroidRuntime: Caused by: com.example.Boom: bad state: gone',
    );
    // Without the prefix R8's reading stands: its class is the message's last word.
    expect(retraceTrace(index, 'Caused by: a.b: bad state: gone').text).toBe(
      'Caused by: a.b: bad state: gone',
    );
  });
});

describe('splitTraceLines', () => {
  it('splits as Java readAllLines does', () => {
    expect(splitTraceLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitTraceLines('a\r\n\nb')).toEqual(['a', '', 'b']);
    expect(splitTraceLines('')).toEqual([]);
  });
});
