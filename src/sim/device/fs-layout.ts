import { MemFs, UID, type FsNode } from './fs.js';

const SHARED_DIRS = [
  'Alarms',
  'Android',
  'Audiobooks',
  'DCIM',
  'Documents',
  'Download',
  'Movies',
  'Music',
  'Notifications',
  'Pictures',
  'Podcasts',
  'Recordings',
  'Ringtones',
];

function dir(perm: number, uid: number, gid: number): FsNode {
  return { type: 'dir', perm, uid, gid, mtimeMs: Date.now() - 86_400_000, ino: 0, children: new Map() };
}

const EMPTY = new Uint8Array(0);
const enc = new TextEncoder();

/** A few /proc files clients read (static text, shared by every device). */
const PROC_FILES: readonly [string, Uint8Array][] = [
  [
    'version',
    enc.encode(
      'Linux version 6.1.57-android14-11-g2dc8e0a0e1d4-ab11374156 (kleaf@build-host) (Android (10087095, +pgo, +bolt, +lto, -mlgo, based on r487747c) clang version 17.0.2, LLD 17.0.2) #1 SMP PREEMPT Tue Jan 30 19:52:24 UTC 2024\n',
    ),
  ],
  [
    'meminfo',
    enc.encode(
      'MemTotal:        7823148 kB\nMemFree:          412884 kB\nMemAvailable:    3912004 kB\nBuffers:            6200 kB\nCached:          3318016 kB\nSwapCached:        10120 kB\nSwapTotal:       4194300 kB\nSwapFree:        3801344 kB\n',
    ),
  ],
  [
    'cpuinfo',
    enc.encode(
      Array.from(
        { length: 8 },
        (_, i) =>
          `processor\t: ${i}\nBogoMIPS\t: 49.15\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0xd05\nCPU revision\t: 0\n\n`,
      ).join(''),
    ),
  ],
  ['loadavg', enc.encode('1.23 0.98 0.75 2/1843 9021\n')],
];

/**
 * A fresh device file system with Android's layout as the shell user meets it: shared storage
 * behind /sdcard, a writable /data/local/tmp, unlistable /data, and a binary per built-in command.
 */
export function buildDeviceFs(commandNames: Iterable<string>): MemFs {
  const fs = new MemFs();
  const t = Date.now() - 86_400_000;
  fs.put('/system', dir(0o755, UID.root, UID.root));
  fs.put('/system/bin', dir(0o751, UID.root, UID.shell));
  for (const name of commandNames) {
    if (/^[A-Za-z0-9_.-]+$/.test(name)) {
      fs.put(`/system/bin/${name}`, {
        type: 'file',
        perm: 0o755,
        uid: UID.root,
        gid: UID.shell,
        mtimeMs: t,
        ino: 0,
        data: EMPTY,
      });
    }
  }
  fs.put('/system/xbin', dir(0o751, UID.root, UID.shell));
  fs.put('/vendor', dir(0o755, UID.root, UID.shell));
  fs.put('/product', dir(0o755, UID.root, UID.root));
  fs.put('/apex', dir(0o755, UID.root, UID.root));
  fs.put('/etc', {
    type: 'link',
    perm: 0o777,
    uid: UID.root,
    gid: UID.root,
    mtimeMs: t,
    ino: 0,
    target: '/system/etc',
  });
  fs.put('/system/etc', dir(0o755, UID.root, UID.root));
  fs.put('/system/etc/hosts', {
    type: 'file',
    perm: 0o644,
    uid: UID.root,
    gid: UID.root,
    mtimeMs: t,
    ino: 0,
    data: new TextEncoder().encode('127.0.0.1       localhost\n::1             ip6-localhost\n'),
  });
  fs.put('/bin', {
    type: 'link',
    perm: 0o777,
    uid: UID.root,
    gid: UID.root,
    mtimeMs: t,
    ino: 0,
    target: '/system/bin',
  });
  fs.put('/dev', dir(0o755, UID.root, UID.root));
  fs.put('/dev/null', { type: 'chr', perm: 0o666, uid: UID.root, gid: UID.root, mtimeMs: t, ino: 0 });
  fs.put('/dev/zero', { type: 'chr', perm: 0o666, uid: UID.root, gid: UID.root, mtimeMs: t, ino: 0 });
  fs.put('/proc', dir(0o555, UID.root, UID.root));
  for (const [name, data] of PROC_FILES) {
    fs.put(`/proc/${name}`, {
      type: 'file',
      perm: 0o444,
      uid: UID.root,
      gid: UID.root,
      mtimeMs: t,
      ino: 0,
      data,
    });
  }
  fs.put('/mnt', dir(0o755, UID.root, 1000));
  fs.put('/data', dir(0o771, UID.system, UID.system));
  fs.put('/data/local', dir(0o751, UID.root, UID.root));
  fs.put('/data/local/tmp', dir(0o771, UID.shell, UID.shell));
  fs.put('/data/app', dir(0o771, UID.system, UID.system));
  fs.put('/data/data', dir(0o771, UID.system, UID.system));
  fs.put('/data/anr', dir(0o775, UID.system, UID.system));
  fs.put('/data/tombstones', dir(0o771, UID.system, UID.system));
  fs.put('/storage', dir(0o755, UID.root, UID.root));
  fs.put('/storage/emulated', dir(0o711, UID.root, UID.root));
  fs.put('/storage/emulated/0', dir(0o2770, UID.root, UID.everybody));
  for (const d of SHARED_DIRS) {
    fs.put(`/storage/emulated/0/${d}`, dir(0o2770, UID.root, UID.everybody));
  }
  fs.put('/storage/self', dir(0o755, UID.root, UID.root));
  fs.put('/storage/self/primary', {
    type: 'link',
    perm: 0o777,
    uid: UID.root,
    gid: UID.root,
    mtimeMs: t,
    ino: 0,
    target: '/storage/emulated/0',
  });
  fs.put('/sdcard', {
    type: 'link',
    perm: 0o777,
    uid: UID.root,
    gid: UID.root,
    mtimeMs: t,
    ino: 0,
    target: '/storage/emulated/0',
  });
  return fs;
}
