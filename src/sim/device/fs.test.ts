import { describe, expect, it } from 'vitest';
import { SimFsError } from '../device-api.js';
import { buildDeviceFs } from './fs-layout.js';
import { S_IFDIR, S_IFLNK, S_IFREG } from './fs.js';

const fs = (): ReturnType<typeof buildDeviceFs> => buildDeviceFs(['ls', 'cat']);

describe('the device file system', () => {
  it('resolves /sdcard through its symlink to /storage/emulated/0', () => {
    const f = fs();
    expect(f.lstat('/sdcard').mode & 0o170000).toBe(S_IFLNK);
    expect(f.stat('/sdcard').mode & 0o170000).toBe(S_IFDIR);
    expect(f.realpath('/sdcard/Download')).toBe('/storage/emulated/0/Download');
  });

  it('stores pushed files with their mode and mtime and lists them with their stat', () => {
    const f = fs();
    const data = new TextEncoder().encode('hello');
    f.write('/data/local/tmp/a.txt', data, S_IFREG | 0o644, 1_700_000_000);
    expect(f.stat('/data/local/tmp/a.txt')).toEqual({ mode: S_IFREG | 0o644, size: 5, mtime: 1_700_000_000 });
    expect(f.read('/data/local/tmp/a.txt')).toEqual(data);
    expect(f.list('/data/local/tmp')).toEqual([
      { name: 'a.txt', stat: { mode: S_IFREG | 0o644, size: 5, mtime: 1_700_000_000 } },
    ]);
  });

  it('gives files in shared storage the FUSE mode 0660 whatever the pushed mode', () => {
    const f = fs();
    f.write('/sdcard/Download/x.bin', new Uint8Array([1, 2, 3]), S_IFREG | 0o755, 1);
    expect(f.stat('/storage/emulated/0/Download/x.bin').mode).toBe(S_IFREG | 0o660);
  });

  it('fails like adbd does: missing parents, directories, unreadable places', () => {
    const f = fs();
    const errno = (fn: () => unknown): string => {
      try {
        fn();
      } catch (err) {
        return err instanceof SimFsError ? err.errno : 'other';
      }
      return 'none';
    };
    expect(errno(() => f.write('/data/local/tmp/nope/x', new Uint8Array(0), S_IFREG | 0o644, 0))).toBe(
      'ENOENT',
    );
    expect(errno(() => f.read('/sdcard'))).toBe('EISDIR');
    expect(errno(() => f.list('/data'))).toBe('EACCES');
    // `adb push x /system/x`: "remote couldn't create file: Read-only file system" (the mount, not the bits).
    expect(errno(() => f.write('/system/x', new Uint8Array(0), S_IFREG | 0o644, 0))).toBe('EROFS');
    expect(errno(() => f.stat('/nope'))).toBe('ENOENT');
  });

  it('creates missing parents for mkdirs (sync SEND into a new folder)', () => {
    const f = fs();
    f.mkdirs?.('/sdcard/a/b/c');
    expect(f.stat('/sdcard/a/b/c').mode & 0o170000).toBe(S_IFDIR);
  });
});

describe('read-only mounts', () => {
  // The kernel checks a read-only mount before the permission bits (sb_permission): a phone answers
  // "Read-only file system" for / and its system partitions, as root too, until `adb remount`.
  it('refuses changes to / and the system partitions, root or not, and leaves /data writable', () => {
    const device = fs();
    for (const superuser of [false, true]) {
      device.superuser = superuser;
      for (const change of [
        () => device.writeFile('/system/x', new Uint8Array(1)),
        () => device.writeFile('/x', new Uint8Array(1)),
        () => device.mkdir('/vendor/y'),
        () => device.unlink('/sdcard'),
        () => device.touch('/system'),
      ]) {
        expect(change, `superuser ${superuser}`).toThrow('Read-only file system');
      }
    }
    device.writeFile('/data/local/tmp/ok', new Uint8Array(1));
    expect(device.read('/data/local/tmp/ok')).toHaveLength(1);
  });
});
