import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { quoteDeviceShellArg } from '../../adb/quote.js';
import type { SimDevice } from '../device-api.js';
import { runOn } from '../device/collect-io.js';
import { createSimDevice } from '../control/index.js';
import { testIdentity } from '../../../tests/helpers/sim-identity.js';

const identity = testIdentity(7001);

let dev: SimDevice;
function device(): SimDevice {
  dev = createSimDevice({ identity, logcatRate: 0, dumpLatencyMs: 5 });
  return dev;
}
afterEach(() => dev?.close());

describe('the device shell', () => {
  it('runs an unquoted `;` as a second command, so the file it names appears', async () => {
    const d = device();
    const r = await runOn(d, 'echo a; touch /data/local/tmp/x');
    expect(r.stdout).toBe('a\n');
    expect(d.fs.stat('/data/local/tmp/x').size).toBe(0);
  });

  it('leaves a quoted `;` as text and creates nothing', async () => {
    const d = device();
    const r = await runOn(d, "echo 'a; touch /data/local/tmp/x'");
    expect(r.stdout).toBe('a; touch /data/local/tmp/x\n');
    expect(() => d.fs.stat('/data/local/tmp/x')).toThrow('No such file or directory');
  });

  it('prints any string quoted with quoteDeviceShellArg back unchanged through printf', async () => {
    const d = device();
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), async (s) => {
        fc.pre(!s.includes('\0'));
        const r = await runOn(d, `printf '%s\\n' ${quoteDeviceShellArg(s)}`);
        expect(r.code).toBe(0);
        expect(r.stdout).toBe(s + '\n');
      }),
      { numRuns: 300 },
    );
  });

  it('prints any quoted string without escapes or options back unchanged through echo', async () => {
    const d = device();
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary-ascii', maxLength: 40 }), async (s) => {
        // mksh's echo interprets backslash escapes and -n/-e/-E, as it does on a device.
        fc.pre(!s.includes('\0') && !s.includes('\\') && !/^-[neE]+$/.test(s));
        const r = await runOn(d, `echo ${quoteDeviceShellArg(s)}`);
        expect(r.stdout).toBe(s + '\n');
      }),
      { numRuns: 300 },
    );
  });

  it('never runs anything hidden in a quoted hostile argument', async () => {
    const d = device();
    const hostile = fc.constantFrom(
      ';',
      '&&',
      '||',
      '|',
      '$(',
      '`',
      "'",
      '"',
      '\n',
      '>',
      '<',
      '&',
      ' ',
      '\\',
      '$',
      '(',
      ')',
      '{',
      '}',
      '*',
      '#',
    );
    const payload = fc
      .array(fc.oneof(hostile, fc.constant('touch /data/local/tmp/pwned'), fc.string({ maxLength: 4 })), {
        maxLength: 12,
      })
      .map((p) => p.join(''));
    await fc.assert(
      fc.asyncProperty(payload, async (s) => {
        fc.pre(!s.includes('\0'));
        await runOn(d, `echo ${quoteDeviceShellArg(s)} >/dev/null`);
        await runOn(d, `ls ${quoteDeviceShellArg(s)} 2>/dev/null`);
        expect(d.fs.list('/data/local/tmp').map((e) => e.name)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('reports an unknown command the way mksh does, with exit status 127', async () => {
    const r = await runOn(device(), 'frobnicate --now');
    expect(r.code).toBe(127);
    expect(r.stderr).toBe('/system/bin/sh: frobnicate: inaccessible or not found\n');
  });

  it('chains with && and || on exit statuses and exposes $?', async () => {
    const r = await runOn(device(), 'false && echo no; false || echo yes; false; echo $?; true; echo $?');
    expect(r.stdout).toBe('yes\n1\n0\n');
  });

  it('returns the exit status of `exit N` and of the last command', async () => {
    const d = device();
    expect((await runOn(d, 'exit 3')).code).toBe(3);
    expect((await runOn(d, 'true; false')).code).toBe(1);
    expect((await runOn(d, 'sh -c "exit 7"')).code).toBe(7);
  });

  it('feeds a pipeline stage the previous stage’s output and stops the writer when the reader is done', async () => {
    const d = device();
    expect((await runOn(d, 'seq 1 100000 | grep 7 | head -n 3')).stdout).toBe('7\n17\n27\n');
    expect((await runOn(d, 'printf "b\\na\\nc\\n" | sort | tr a-z A-Z')).stdout).toBe('A\nB\nC\n');
    expect((await runOn(d, 'echo hello world | wc -l')).stdout).toBe('1\n');
  });

  it('redirects stdout and stderr to files, to each other and to /dev/null', async () => {
    const d = device();
    await runOn(
      d,
      'echo one > /data/local/tmp/f; echo two >> /data/local/tmp/f; cat /nope 2>> /data/local/tmp/f',
    );
    expect((await runOn(d, 'cat /data/local/tmp/f')).stdout).toBe(
      'one\ntwo\ncat: /nope: No such file or directory\n',
    );
    const merged = await runOn(d, 'cat /nope 2>&1');
    expect(merged.stdout).toBe('cat: /nope: No such file or directory\n');
    expect(merged.stderr).toBe('');
    const toErr = await runOn(d, 'echo oops >&2');
    expect(toErr.stderr).toBe('oops\n');
    expect((await runOn(d, 'echo hidden >/dev/null; cat /nope 2>/dev/null; echo $?')).stdout).toBe('1\n');
    expect((await runOn(d, 'wc -l < /data/local/tmp/f')).stdout).toBe('3\n');
  });

  it('substitutes commands, variables and arithmetic, splitting unquoted results into words', async () => {
    const d = device();
    expect((await runOn(d, 'x=$(echo a b); printf "[%s]" $x "$x"; echo')).stdout).toBe('[a][b][a b]\n');
    expect((await runOn(d, 'n=4; echo $((n * 3 + 1)) ${m:-fallback} ${#n}')).stdout).toBe('13 fallback 1\n');
    expect((await runOn(d, 'echo "sdk=$(getprop ro.build.version.sdk)"')).stdout).toBe('sdk=34\n');
  });

  it('handles backslashes, double quotes and single quotes like sh', async () => {
    const d = device();
    expect((await runOn(d, `echo a\\ b "c  d" 'e\\f' "g\\"h" 'it'\\''s'`)).stdout).toBe(
      'a b c  d e\x0c g"h it\'s\n',
    );
    expect((await runOn(d, 'echo "unterminated')).stderr).toBe('/system/bin/sh: no closing quote\n');
  });

  it('runs sh -c scripts with positional parameters', async () => {
    expect((await runOn(device(), `sh -c 'echo $0:$1:$#' zero one`)).stdout).toBe('zero:one:1\n');
  });

  it('runs if, for and while compounds', async () => {
    const d = device();
    expect((await runOn(d, 'for i in 1 2 3; do echo $i; done')).stdout).toBe('1\n2\n3\n');
    expect((await runOn(d, 'if [ -d /sdcard ]; then echo dir; else echo no; fi')).stdout).toBe('dir\n');
    expect((await runOn(d, 'i=0; while [ $i -lt 3 ]; do i=$((i+1)); done; echo $i')).stdout).toBe('3\n');
  });

  it('expands globs against the device file system', async () => {
    const d = device();
    await runOn(d, 'touch /data/local/tmp/a.png /data/local/tmp/b.png /data/local/tmp/c.txt');
    expect((await runOn(d, 'ls /data/local/tmp/*.png')).stdout).toBe(
      '/data/local/tmp/a.png\n/data/local/tmp/b.png\n',
    );
    expect((await runOn(d, "echo '/data/local/tmp/*.png'")).stdout).toBe('/data/local/tmp/*.png\n');
  });

  it('stops sleep when the stream is closed', async () => {
    const ctl = new AbortController();
    const started = Date.now();
    const run = runOn(device(), 'sleep 30', { signal: ctl.signal });
    setTimeout(() => ctl.abort(), 20);
    const r = await run;
    expect(r.code).toBe(130);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('byte ranges of a file (what droidbus reads an APK with)', () => {
  const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => (i * 7) % 256);
  const put = (d: SimDevice): void => {
    d.fs.write('/data/local/tmp/f.bin', bytes, 0o644, Date.now());
  };

  it('dd copies whole blocks from skip, the data on stdout and the record counts on stderr', async () => {
    const d = device();
    put(d);
    const r = await runOn(d, 'dd if=/data/local/tmp/f.bin bs=4096 skip=1 count=2');
    expect(r.code).toBe(0);
    expect(Buffer.from(r.bytes)).toEqual(Buffer.from(bytes.subarray(4096, 10_000)));
    // toybox dd.c's summary: a full block and a partial one.
    expect(r.stderr).toMatch(/^1\+1 records in\n1\+1 records out\n5904 bytes/);
    const missing = await runOn(d, 'dd if=/data/local/tmp/none bs=4096');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No such file or directory');
  });

  it('tail -c N is the last N bytes and tail -c +N starts at byte N', async () => {
    const d = device();
    put(d);
    const last = await runOn(d, 'tail -c 100 /data/local/tmp/f.bin');
    expect(Buffer.from(last.bytes)).toEqual(Buffer.from(bytes.subarray(9_900)));
    const from = await runOn(d, 'tail -c +9001 /data/local/tmp/f.bin');
    expect(Buffer.from(from.bytes)).toEqual(Buffer.from(bytes.subarray(9_000)));
  });
});
