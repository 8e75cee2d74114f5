/**
 * A deterministic generator of large, realistic R8 mappings (classes with fields, methods with
 * line ranges, inlined callees, Kotlin source-file metadata, synthesized lambda classes) and of
 * obfuscated stack traces against them together with the retraced trace R8's rules give.
 * Used by the 20 MB mapping test and by bench/retrace.ts; nothing it makes is committed.
 */

export interface GeneratedMapping {
  text: string;
  /** The same mapping without R8's `# {…}` metadata lines, for tools that only read ProGuard's format. */
  proguardText: string;
  classes: GeneratedClass[];
}

export interface GeneratedMethod {
  name: string;
  renamed: string;
  returnType: string;
  params: string[];
  /** Minified ranges with their original start line, and an optional inlined callee. */
  ranges: {
    minFrom: number;
    minTo: number;
    origFrom: number;
    inlinee: { holder: string; name: string; line: number } | null;
    callLine: number;
  }[];
}

export interface GeneratedClass {
  original: string;
  obfuscated: string;
  sourceFile: string | null;
  methods: GeneratedMethod[];
}

/** Mulberry32: small, fast, and the same sequence everywhere. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shortName(n: number): string {
  let s = '';
  do {
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return s;
}

const WORDS = [
  'Account',
  'Adapter',
  'Binder',
  'Cache',
  'Client',
  'Controller',
  'Decoder',
  'Engine',
  'Factory',
  'Feed',
  'Handler',
  'Image',
  'Loader',
  'Manager',
  'Model',
  'Network',
  'Presenter',
  'Profile',
  'Repository',
  'Request',
  'Session',
  'Settings',
  'Store',
  'Sync',
  'Upload',
  'View',
  'Worker',
  'Parser',
  'Router',
  'Service',
];
const VERBS = [
  'load',
  'bind',
  'update',
  'fetch',
  'parse',
  'render',
  'apply',
  'handle',
  'compute',
  'resolve',
  'dispatch',
  'emit',
];
const TYPES = [
  'int',
  'long',
  'boolean',
  'java.lang.String',
  'android.os.Bundle',
  'java.util.List',
  'android.view.View',
  'byte[]',
];

/** Generates a mapping of at least `targetBytes` bytes, the same for the same seed. */
export function generateMapping(targetBytes: number, seed = 7): GeneratedMapping {
  const rand = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const parts: string[] = [
    '# compiler: R8',
    '# compiler_version: 8.2.42',
    '# min_api: 24',
    '# common_typos_disable',
    '# {"id":"com.android.tools.r8.mapping","version":"2.2"}',
    '# pg_map_id: 5b8d8d1',
    '# pg_map_hash: SHA-256 5b8d8d1c4a0e3f1d2b6a7c8e9f0a1b2c3d4e5f60718293a4b5c6d7e8f9011223',
  ];
  const pgParts: string[] = [];
  let size = parts.reduce((n, p) => n + p.length + 1, 0);
  const classes: GeneratedClass[] = [];
  for (let c = 0; size < targetBytes; c++) {
    const kotlin = rand() < 0.3;
    const simple = `${pick(WORDS)}${pick(WORDS)}${c}`;
    const pkg = `com.example.app.feature${c % 97}`;
    const original = `${pkg}.${simple}${kotlin && rand() < 0.5 ? 'Kt' : ''}`;
    const obfuscated = `${shortName(Math.floor(c / 500))}.${shortName(c % 500)}`;
    const sourceFile = kotlin ? `${simple}.kt` : null;
    const lines: string[] = [`${original} -> ${obfuscated}:`];
    const pgLines: string[] = [`${original} -> ${obfuscated}:`];
    if (sourceFile !== null) {
      lines.push(`# {"id":"sourceFile","fileName":"${sourceFile}"}`);
    }
    const fieldCount = 2 + Math.floor(rand() * 6);
    for (let f = 0; f < fieldCount; f++) {
      const line = `    ${pick(TYPES)} field${f}${pick(WORDS)} -> ${shortName(f)}`;
      lines.push(line);
      pgLines.push(line);
    }
    const methods: GeneratedMethod[] = [];
    const methodCount = 2 + Math.floor(rand() * 12);
    for (let m = 0; m < methodCount; m++) {
      const method: GeneratedMethod = {
        name: `${pick(VERBS)}${pick(WORDS)}${m}`,
        renamed: shortName(m),
        returnType: rand() < 0.5 ? 'void' : pick(TYPES),
        params: Array.from({ length: Math.floor(rand() * 3) }, () => pick(TYPES)),
        ranges: [],
      };
      let minLine = 1;
      let origLine = 10 + Math.floor(rand() * 400);
      const rangeCount = 1 + Math.floor(rand() * 4);
      for (let r = 0; r < rangeCount; r++) {
        const length = 1 + Math.floor(rand() * 6);
        const inline = rand() < 0.3;
        const range = {
          minFrom: minLine,
          minTo: minLine + length - 1,
          origFrom: origLine,
          inlinee: inline
            ? {
                holder: `com.example.lib.${pick(WORDS)}Utils`,
                name: `check${pick(WORDS)}`,
                line: 20 + Math.floor(rand() * 200),
              }
            : null,
          callLine: origLine + Math.floor(rand() * length),
        };
        method.ranges.push(range);
        const sig = `${method.returnType} ${method.name}(${method.params.join(',')})`;
        if (range.inlinee !== null) {
          const callee = `    ${range.minFrom}:${range.minTo}:void ${range.inlinee.holder}.${range.inlinee.name}(java.lang.Object):${range.inlinee.line}:${range.inlinee.line} -> ${method.renamed}`;
          const caller = `    ${range.minFrom}:${range.minTo}:${sig}:${range.callLine} -> ${method.renamed}`;
          lines.push(callee, caller);
          pgLines.push(callee, caller);
        } else {
          const line = `    ${range.minFrom}:${range.minTo}:${sig}:${range.origFrom}:${range.origFrom + length - 1} -> ${method.renamed}`;
          lines.push(line);
          pgLines.push(line);
        }
        minLine += length;
        origLine += length + Math.floor(rand() * 5);
      }
      methods.push(method);
    }
    if (rand() < 0.1) {
      // A synthesized lambda method, as R8 writes them.
      lines.push(`    void lambda$${methods[0]?.name ?? 'x'}$0() -> ${shortName(methodCount)}`);
      lines.push(`      # {"id":"com.android.tools.r8.synthesized"}`);
      pgLines.push(`    void lambda$${methods[0]?.name ?? 'x'}$0() -> ${shortName(methodCount)}`);
    }
    classes.push({ original, obfuscated, sourceFile, methods });
    const block = lines.join('\n');
    parts.push(block);
    pgParts.push(pgLines.join('\n'));
    size += block.length + 1;
  }
  return { text: parts.join('\n') + '\n', proguardText: pgParts.join('\n') + '\n', classes };
}

export interface GeneratedTrace {
  trace: string;
  /** The retraced trace by R8's rules. */
  expected: string;
}

/** A `frames`-frame trace against a generated mapping, with its expected retrace. */
export function generateTrace(mapping: GeneratedMapping, frames: number, seed = 11): GeneratedTrace {
  const rand = prng(seed);
  const trace = ['java.lang.IllegalStateException: generated'];
  const expected = ['java.lang.IllegalStateException: generated'];
  for (let i = 0; i < frames; i++) {
    const cls = mapping.classes[Math.floor(rand() * mapping.classes.length)] as GeneratedClass;
    const method = cls.methods[Math.floor(rand() * cls.methods.length)] as GeneratedMethod;
    const range = method.ranges[
      Math.floor(rand() * method.ranges.length)
    ] as GeneratedMethod['ranges'][number];
    const line = range.minFrom + Math.floor(rand() * (range.minTo - range.minFrom + 1));
    trace.push(`\tat ${cls.obfuscated}.${method.renamed}(SourceFile:${line})`);
    const file = cls.sourceFile ?? `${outerSimpleName(cls.original)}.java`;
    if (range.inlinee !== null) {
      const holderFile = `${outerSimpleName(range.inlinee.holder)}.java`;
      expected.push(
        `\tat ${range.inlinee.holder}.${range.inlinee.name}(${holderFile}:${range.inlinee.line})`,
      );
      expected.push(`\tat ${cls.original}.${method.name}(${file}:${range.callLine})`);
    } else {
      expected.push(`\tat ${cls.original}.${method.name}(${file}:${range.origFrom + line - range.minFrom})`);
    }
  }
  return { trace: trace.join('\n') + '\n', expected: expected.join('\n') + '\n' };
}

function outerSimpleName(className: string): string {
  const simple = className.slice(className.lastIndexOf('.') + 1);
  const name = simple.includes('$') ? simple.slice(0, simple.indexOf('$')) : simple;
  return name;
}
