/**
 * The /proc files whose text changes while the device runs, rendered at each read:
 *
 * /proc/uptime (fs/proc/uptime.c): seconds since boot and the idle seconds summed over the CPUs,
 * two decimals each — the device's one clock (Device.uptimeMs), which dumpsys's `Uptime:` lines,
 * a location's `et=` and gfxinfo's timestamps read too.
 *
 * /proc/net/tcp and /proc/net/tcp6 as the kernel prints them (net/ipv4/tcp_ipv4.c tcp4_seq_show,
 * net/ipv6/tcp_ipv6.c tcp6_seq_show): a header row, then one row per socket with the local address
 * and port in hex. A Java server such as the UiAutomator2 server binds the IPv6 wildcard, so it is
 * listed in tcp6 (`::` → 32 zeros) and not in tcp. Rows and headers match the captures quoted in
 * public parsers' tests (e.g. appium-adb's listPorts reads the `local_address` and `st` columns).
 * The shell user may read both files; an app may not since Android 10, which clients never are here.
 */
import type { FsNode } from './fs-node.js';
import { UID } from './fs-node.js';

const TCP4_HEADER =
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
const TCP6_HEADER =
  '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
/** TCP_LISTEN in include/net/tcp_states.h. */
const LISTEN = '0A';

/** A socket the device listens on. */
export interface Listener {
  port: number;
  uid: number;
  inode: number;
}

function row(i: number, address: string, l: Listener): string {
  const port = l.port.toString(16).toUpperCase().padStart(4, '0');
  const zeros = '0'.repeat(address.length);
  return `${String(i).padStart(4)}: ${address}:${port} ${zeros}:0000 ${LISTEN} 00000000:00000000 00:00000000 00000000 ${String(l.uid).padStart(5)}        0 ${l.inode} 1 0000000000000000 100 0 0 10 0`;
}

/** The text of /proc/net/tcp (`family` 4, where nothing modelled listens) or tcp6. */
export function procNetTcp(family: 4 | 6, listeners: readonly Listener[]): string {
  if (family === 4) {
    return TCP4_HEADER.padEnd(149) + '\n';
  }
  const any6 = '0'.repeat(32);
  return [TCP6_HEADER, ...listeners.map((l, i) => row(i, any6, l))].join('\n') + '\n';
}

/**
 * The idle share of the eight CPUs' time a phone at rest reports: the capture this file used to
 * serve verbatim, `3692.34 27150.12`, 27150 s idle in 3692 s up.
 */
const IDLE_PER_SECOND = 7.35;

/** The text of /proc/uptime after `ms` of uptime. */
export function procUptime(ms: number): string {
  const up = ms / 1000;
  return `${up.toFixed(2)} ${(up * IDLE_PER_SECOND).toFixed(2)}\n`;
}

/**
 * The text of /proc/net/unix (net/unix/af_unix.c unix_seq_show): the header, then a row per socket —
 * the kernel address (zeros: kptr_restrict hides it from the shell), refcount, protocol, flags
 * (__SO_ACCEPTCON 00010000 for a listener), type (0001 stream), state (01 unconnected), inode, and
 * the path, an abstract name shown with a leading `@`. The system's own sockets come first.
 */
export function procNetUnix(sockets: readonly { name: string; inode: number }[]): string {
  const row = (inode: number, path: string): string =>
    `0000000000000000: 00000002 00000000 00010000 0001 01 ${String(inode).padStart(5)} ${path}`;
  return (
    [
      'Num       RefCount Protocol Flags    Type St Inode Path',
      row(1041, '/dev/socket/adbd'),
      row(1043, '/dev/socket/zygote'),
      row(1045, '/dev/socket/logd'),
      row(1047, '@jdwp-control'),
      ...sockets.map((s) => row(s.inode, `@${s.name}`)),
    ].join('\n') + '\n'
  );
}

/**
 * Puts /proc/uptime and /proc/net with live tcp, tcp6 and unix files (each read renders that
 * moment's uptime, listeners and sockets).
 */
export function putLiveProcFiles(
  put: (path: string, node: FsNode) => void,
  live: {
    uptimeMs: () => number;
    listeners: () => readonly Listener[];
    unixSockets: () => readonly { name: string; inode: number }[];
  },
): void {
  const enc = new TextEncoder();
  const base = { perm: 0o444, uid: UID.root, gid: UID.root, mtimeMs: Date.now(), ino: 0 };
  put('/proc/uptime', {
    ...base,
    type: 'file',
    get data() {
      return enc.encode(procUptime(live.uptimeMs()));
    },
  });
  put('/proc/net', { ...base, type: 'dir', perm: 0o555, children: new Map() });
  put('/proc/net/unix', {
    ...base,
    type: 'file',
    get data() {
      return enc.encode(procNetUnix(live.unixSockets()));
    },
  });
  for (const family of [4, 6] as const) {
    put(`/proc/net/tcp${family === 6 ? '6' : ''}`, {
      ...base,
      type: 'file',
      get data() {
        return enc.encode(procNetTcp(family, live.listeners()));
      },
    });
  }
}
