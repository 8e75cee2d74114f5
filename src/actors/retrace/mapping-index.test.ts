import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { deserializeIndex, serializeIndex } from './index-cache.js';
import { mappingInfo } from './index.js';
import { parseLenientJson } from './lenient-json.js';
import { buildMappingIndex, lookupClass, sourceFileOfOriginal } from './mapping-index.js';
import { MappingError } from './mapping-model.js';

// Header lines as R8 8.x writes them (AGP release builds), then its metadata forms.
const R8_MAPPING = [
  '# compiler: R8',
  '# compiler_version: 8.2.42',
  '# min_api: 24',
  '# common_typos_disable',
  '# {"id":"com.android.tools.r8.mapping","version":"2.2"}',
  '# pg_map_id: 5b8d8d1',
  '# pg_map_hash: SHA-256 5b8d8d1c4a0e3f1d',
  'com.example.Main -> a.a:',
  '# {"id":"sourceFile","fileName":"Main.kt"}',
  '    int count -> a',
  '    java.lang.String TAG -> b',
  '    void <init>() -> <init>',
  '    1:3:void run():10:12 -> a',
  '    4:4:void com.example.Util.check(java.lang.Object):5:5 -> a',
  '    4:4:void run():13 -> a',
  '    5:9:void run():20 -> a',
  '    void other(int, java.lang.String[]) -> b',
  '      # {"id":"com.android.tools.r8.residualsignature","signature":"(I)V"}',
  '    1:2:int outline() -> c',
  '    # {"id":"com.android.tools.r8.outline"}',
  '    27:27:int caller(int):0:0 -> d',
  "    # { 'id':'com.android.tools.r8.outlineCallsite', 'positions': { '1': 4, '2': 5 } }",
  "    # { id: 'com.android.tools.r8.rewriteFrame', conditions: ['throws(Ljava/lang/NullPointerException;)'], actions: ['removeInnerFrames(1)'] }",
  'com.example.Main$$ExternalSyntheticLambda0 -> a.b:',
  '# {"id":"com.android.tools.r8.synthesized"}',
  '    void run() -> run',
  '      # {"id":"com.android.tools.r8.synthesized"}',
  '',
].join('\n');

describe('the mapping index', () => {
  it('reads the header comments R8 writes', () => {
    const index = buildMappingIndex(R8_MAPPING);
    expect(mappingInfo(index)).toEqual({
      mapId: '5b8d8d1',
      mapHash: 'SHA-256 5b8d8d1c4a0e3f1d',
      compiler: 'R8',
      compilerVersion: '8.2.42',
      minApi: '24',
      mapVersion: '2.2',
      sha256: createHash('sha256').update(R8_MAPPING).digest('hex'),
      classes: 2,
      bytes: Buffer.byteLength(R8_MAPPING),
    });
  });

  it('finds classes by obfuscated name and parses their members only on first use', () => {
    const index = buildMappingIndex(R8_MAPPING);
    expect(index.parsed.every((c) => c === undefined)).toBe(true);
    const main = lookupClass(index, 'a.a');
    expect(main?.original).toBe('com.example.Main');
    expect(index.parsed[0]).toBe(main);
    expect(index.parsed[1]).toBeUndefined();
    expect(lookupClass(index, 'com.example.Main')).toBeUndefined();
  });

  it('parses field lines, and method lines with and without line ranges', () => {
    const main = lookupClass(buildMappingIndex(R8_MAPPING), 'a.a');
    expect(main?.fields.get('a')).toEqual([{ type: 'int', name: 'count', renamed: 'a' }]);
    expect(main?.fields.get('b')?.[0]?.type).toBe('java.lang.String');
    const [init] = main?.methods.get('<init>') ?? [];
    expect(init).toMatchObject({ minFrom: -1, origFrom: -1, renamed: '<init>' });
    const [other] = main?.methods.get('b') ?? [];
    expect(other?.signature).toMatchObject({
      returnType: 'void',
      name: 'other',
      params: ['int', 'java.lang.String[]'],
    });
    expect(other).toMatchObject({ minFrom: -1, minTo: -1, origFrom: -1 });
  });

  it('reads minified ranges mapped to ranges, to one line, and inline groups', () => {
    const ranges = lookupClass(buildMappingIndex(R8_MAPPING), 'a.a')?.methods.get('a') ?? [];
    expect(ranges.map((r) => [r.minFrom, r.minTo, r.origFrom, r.origTo, r.origCardinal])).toEqual([
      [1, 3, 10, 12, false],
      [4, 4, 5, 5, false],
      [4, 4, 13, 13, true],
      [5, 9, 20, 20, true],
    ]);
    expect(ranges[1]?.signature).toMatchObject({
      holder: 'com.example.Util',
      name: 'check',
      params: ['java.lang.Object'],
    });
    expect(ranges[2]?.signature.holder).toBeNull();
  });

  it('attaches # {…} metadata to the class or to the member line above it', () => {
    const index = buildMappingIndex(R8_MAPPING);
    const main = lookupClass(index, 'a.a');
    expect(main?.sourceFile).toBe('Main.kt');
    expect(sourceFileOfOriginal(index, 'com.example.Main')).toBe('Main.kt');
    expect(main?.methods.get('b')?.[0]?.residualDescriptor).toBe('(I)V');
    const [outline] = main?.methods.get('c') ?? [];
    expect(outline?.outline).toBe(true);
    expect(main?.members.get('int c()')).toMatchObject({
      signature: { name: 'outline' },
      synthesized: false,
      outline: true,
    });
    const [caller] = main?.methods.get('d') ?? [];
    expect([...(caller?.outlineCallsite ?? new Map<number, number>())]).toEqual([
      [1, 4],
      [2, 5],
    ]);
    expect(caller?.rewriteFrame).toEqual([
      { throws: ['Ljava/lang/NullPointerException;'], removeInnerFrames: 1 },
    ]);
    const lambda = lookupClass(index, 'a.b');
    expect(lambda?.synthesized).toBe(true);
    expect(lambda?.methods.get('run')?.[0]?.synthesized).toBe(true);
    expect(lambda?.members.get('void run()')?.synthesized).toBe(true);
  });

  it('ignores metadata that the mapping version does not support, as R8 does', () => {
    const index = buildMappingIndex(
      ['a.B -> a:', '    void run() -> a', '    # {"id":"com.android.tools.r8.synthesized"}', ''].join('\n'),
    );
    expect(lookupClass(index, 'a')?.methods.get('a')?.[0]?.synthesized).toBe(false);
  });

  it('reads classic ProGuard mappings', () => {
    const index = buildMappingIndex(
      [
        'com.example.Foo -> a:',
        '    int count -> a',
        '    12:14:void foo():12:14 -> a',
        '    void bar() -> b',
        '',
      ].join('\n'),
    );
    expect(mappingInfo(index)).toMatchObject({ mapId: null, compiler: null, mapVersion: null, classes: 1 });
    expect(lookupClass(index, 'a')?.methods.get('a')?.[0]).toMatchObject({
      minFrom: 12,
      minTo: 14,
      origFrom: 12,
      origTo: 14,
    });
  });

  it('accepts an empty mapping and CRLF line ends', () => {
    expect(mappingInfo(buildMappingIndex('')).classes).toBe(0);
    const index = buildMappingIndex('a.B -> a:\r\n    1:2:void run():5:6 -> a\r\n');
    expect(lookupClass(index, 'a')?.methods.get('a')?.[0]?.origTo).toBe(6);
  });

  it('rejects text that is not a mapping, naming the line', () => {
    expect(() => buildMappingIndex('hello world\n')).toThrow(MappingError);
    expect(() => buildMappingIndex('a.B -> a:\n    1:2:void run():5:6 -> a\nnot a class line\n')).toThrow(
      /line 3/,
    );
    expect(() => buildMappingIndex(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x0a, 0x00]))).toThrow(
      MappingError,
    );
    expect(() => buildMappingIndex('a.B -> a:\n    garbage without arrow\n')).toThrow(/line 2/);
  });

  it('reports a malformed member line when its class is first used', () => {
    const index = buildMappingIndex('a.B -> a:\n    1:x:void run() -> a\nc.D -> b:\n');
    expect(lookupClass(index, 'b')?.original).toBe('c.D');
    expect(() => lookupClass(index, 'a')).toThrow(/line 2/);
  });

  it('round-trips the class table through serializeIndex and deserializeIndex', () => {
    const index = buildMappingIndex(R8_MAPPING);
    const data = serializeIndex(index);
    const copy = deserializeIndex(data, index.text, index.sha256);
    expect(copy).not.toBeNull();
    expect(mappingInfo(copy!)).toEqual(mappingInfo(index));
    expect(lookupClass(copy!, 'a.b')?.original).toBe('com.example.Main$$ExternalSyntheticLambda0');
    expect(deserializeIndex(data, index.text, 'another-sha')).toBeNull();
    expect(deserializeIndex(data.subarray(0, data.length - 3), index.text, index.sha256)).toBeNull();
  });
});

describe('the lenient JSON of mapping comments', () => {
  it('reads single quotes and bare keys like Gson in lenient mode', () => {
    expect(parseLenientJson("{ id: 'com.android.tools.r8.mapping', version: '2.0' }")).toEqual({
      id: 'com.android.tools.r8.mapping',
      version: '2.0',
    });
    expect(parseLenientJson('{"positions": {"1": 4}, "a": [1, true, null]}')).toEqual({
      positions: { '1': 4 },
      a: [1, true, null],
    });
    expect(parseLenientJson('{ id: ')).toBeUndefined();
  });
});
