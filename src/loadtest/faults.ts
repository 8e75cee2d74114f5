/**
 * Faults a load test injects while its agents work (`droidbus loadtest --faults …`), one at a time,
 * each followed by the wait until droidbus serves every affected device again:
 *  - `device-drop`: one device leaves the adb server (`adb disconnect`, as a pulled cable) and comes
 *    back after `downMs`;
 *  - `adb-restart`: the adb server is killed and started again on its port, and the simulated
 *    devices are connected again (a USB phone re-appears by itself; TCP devices need `adb connect`);
 *  - `worker-kill`: a worker thread of the host is terminated, as a crash would end it — the device
 *    actors' first thread, then the logcat thread;
 *  - `host-kill`: the host gets SIGKILL and is started again, as a service manager would; the
 *    --attach-only sessions attach to the new host;
 *  - `server-kill` (--adb-servers): the last adb server is killed (`adb kill-server`) for `downMs`,
 *    then started on its port and its devices connected again; only its devices are affected, so a
 *    failed call of another server's device counts as unexplained.
 * Recovery is measured from the moment the fault is undone (the device reconnected, the server or
 * host started again; for a killed worker, the kill itself: droidbus restarts it) to the moment
 * each affected device answers a UI read through its session and, with logcat in the mix, streams
 * again. The logcat lines the device logged between the fault and the recovery are then compared
 * with what droidbus stored: lost (the device had them, droidbus has not) and read twice.
 */
import { sh } from '../adb/shell-command.js';
import { entryKey, isSeparator, threadtimeLineKey, threadtimeOf } from '../actors/logcat/resume-point.js';
import { connectControl } from '../host/control-client.js';
import type { LoadSession } from './mcp-session.js';
import type { FaultKind } from './options.js';
import type { PrivateAdbServer } from '../adb/private-server.js';
import type { ServerGroup } from './run-devices.js';
import type { CallSpan } from './recorder.js';
import { waitUntilOnline } from './sim-process.js';

/** The worker threads `worker-kill` terminates, one injection each. */
const KILLED_WORKERS = [
  { group: 'devices', index: 0 },
  { group: 'logcat', index: 0 },
] as const;

/** How long a fault may take to recover before it is reported as not recovered. */
const RECOVERY_DEADLINE_MS = 90_000;
/** How long the store may take to catch up with the device after recovery. */
const CATCH_UP_DEADLINE_MS = 30_000;
const PROBE_EVERY_MS = 200;

/** One injected fault and what it cost. */
export interface FaultReport {
  fault: FaultKind;
  /** What it hit: a serial, a worker thread, the adb server's port, the host's pid. */
  target: string;
  /** Seconds since the load began. */
  at_s: number;
  /** From the fault to its undoing (the device back, the server or host started); 0 for a worker. */
  down_ms: number;
  recovered: boolean;
  /** From the undoing until every affected device was served again (null: not within 90 s). */
  recovery_ms: number | null;
  /** Calls of the affected devices in flight when the fault struck, and how many of them failed. */
  in_flight: number;
  failed_in_flight: number;
  /** Calls started while the fault lasted (until recovery) that failed. */
  failed_during: number;
  failed_by_code: Record<string, number>;
  /** What the failed calls answered: one example per code. */
  failed_examples: Record<string, string>;
  /**
   * Logcat lines of the affected devices logged from the fault to the recovery (`device_lines`,
   * `lost`, `read_twice`), and the store as a client reads it: the lines logged before the fault
   * that `get_logcat_entries` gave before it (`store_before`) and after the recovery (`store_after`);
   * `store_lost` is what a client could read before and no longer can.
   */
  logcat: {
    devices: number;
    device_lines: number;
    lost: number;
    read_twice: number;
    store_before: number;
    store_after: number;
    store_lost: number;
  } | null;
  note: string | null;
}

/** What the faults act on. */
export interface FaultWorld {
  serials: readonly string[];
  adbServer: PrivateAdbServer;
  /** The session that drives each device (it probes recovery and reads the device's logcat). */
  sessionOf(serial: string): LoadSession;
  logcat: boolean;
  /** With several adb servers: each and its devices (server-kill acts on the last). */
  servers: ServerGroup[] | null;
  /** The host's pid, and a way to kill it and start another; null when sessions run standalone. */
  host: { pid(): number; killAndRestart(): Promise<void>; socketPath: string } | null;
  downMs: number;
}

/** One fault as it ran, on the run's clock (performance.now()) and the wall clock. */
export interface Injected {
  report: Omit<
    FaultReport,
    'in_flight' | 'failed_in_flight' | 'failed_during' | 'failed_by_code' | 'failed_examples' | 'logcat'
  >;
  affected: readonly string[];
  start: number;
  end: number;
  wallStart: number;
  wallEnd: number;
  logcat: FaultReport['logcat'];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One injection: the fault, and for `worker-kill` the thread (`group#index`). */
export interface PlannedFault {
  kind: FaultKind;
  worker?: string;
}

/** The injections the asked faults make: `worker-kill` is one per killed worker thread. */
export function plannedFaults(kinds: readonly FaultKind[]): PlannedFault[] {
  return kinds.flatMap((kind): PlannedFault[] =>
    kind === 'worker-kill'
      ? KILLED_WORKERS.map((w) => ({ kind, worker: `${w.group}#${w.index}` }))
      : [{ kind }],
  );
}

/** Waits until every device of `serials` answers a UI read through its session (and streams logcat). */
async function servedAgain(
  world: FaultWorld,
  serials: readonly string[],
  deadline: number,
): Promise<boolean> {
  const results = await Promise.all(
    serials.map(async (serial) => {
      const session = world.sessionOf(serial);
      while (Date.now() < deadline) {
        const read = await session.call('list_clickable_elements', { device_serial: serial, limit: 1 });
        if (read.ok && (!world.logcat || (await streaming(session, serial)))) {
          return true;
        }
        await sleep(PROBE_EVERY_MS);
      }
      return false;
    }),
  );
  return results.every(Boolean);
}

async function streaming(session: LoadSession, serial: string): Promise<boolean> {
  const stats = await session.call('get_logcat_stats', {});
  const streams = (stats.structured['streams'] ?? []) as { serial?: string; state?: string }[];
  return streams.some((s) => s.serial === serial && s.state === 'streaming');
}

/** Injects one fault and undoes it; answers the affected devices and when it was undone. */
async function inject(
  world: FaultWorld,
  planned: PlannedFault,
  round: number,
): Promise<{ target: string; affected: readonly string[]; note: string | null }> {
  const { adbServer, serials } = world;
  switch (planned.kind) {
    case 'device-drop': {
      const serial = serials[round % serials.length]!;
      await adbServer.client.disconnect(serial);
      await sleep(world.downMs);
      await adbServer.client.connect(serial);
      await waitUntilOnline(adbServer.client, [serial], Date.now() + RECOVERY_DEADLINE_MS);
      return { target: serial, affected: [serial], note: null };
    }
    case 'adb-restart': {
      await adbServer.restart();
      await Promise.all(serials.map((s) => adbServer.client.connect(s).catch(() => undefined)));
      await waitUntilOnline(adbServer.client, [...serials], Date.now() + RECOVERY_DEADLINE_MS, 2_000);
      return { target: `adb server :${adbServer.port}`, affected: serials, note: null };
    }
    case 'worker-kill': {
      if (!world.host) {
        throw new Error('worker-kill needs a host');
      }
      const [group, index] = (planned.worker ?? 'devices#0').split('#') as [string, string];
      const { client } = await connectControl(world.host.socketPath, 5_000);
      try {
        const r = await client.request('host.replace_worker', { group, index: Number(index) });
        return {
          target: `worker ${group}#${index}`,
          affected: serials,
          note: r.actors.length > 0 ? `hosted ${r.actors.length} actor(s)` : 'hosted no actor',
        };
      } finally {
        await client.close();
      }
    }
    case 'host-kill': {
      if (!world.host) {
        throw new Error('host-kill needs a host');
      }
      const pid = world.host.pid();
      await world.host.killAndRestart();
      return { target: `host pid ${pid} → ${world.host.pid()}`, affected: serials, note: null };
    }
    case 'server-kill': {
      const group = world.servers?.[world.servers.length - 1];
      if (!group) {
        throw new Error('server-kill needs --adb-servers 2 or more');
      }
      await group.server.kill();
      await sleep(world.downMs);
      await group.server.startAgain();
      await Promise.all(group.serials.map((s) => group.server.client.connect(s).catch(() => undefined)));
      await waitUntilOnline(group.server.client, group.serials, Date.now() + RECOVERY_DEADLINE_MS, 2_000);
      return { target: `adb server ${group.label} :${group.server.port}`, affected: group.ids, note: null };
    }
    default: {
      const never: never = planned.kind;
      throw new Error(`unknown fault ${String(never)}`);
    }
  }
}

/** Injects one fault, waits for recovery; the report's call figures are filled in later (`classify`). */
export async function runFault(
  world: FaultWorld,
  planned: PlannedFault,
  round: number,
  loadStart: number,
): Promise<Injected> {
  const start = performance.now();
  const wallStart = Date.now();
  let target = planned.worker ?? planned.kind;
  let affected: readonly string[] = world.serials;
  let note: string | null = null;
  let undone = start;
  let recovered = false;
  try {
    ({ target, affected, note } = await inject(world, planned, round));
    undone = performance.now();
    recovered = await servedAgain(world, affected, Date.now() + RECOVERY_DEADLINE_MS);
  } catch (err) {
    note = `could not inject or undo it: ${err instanceof Error ? err.message : String(err)}`;
  }
  const end = performance.now();
  return {
    report: {
      fault: planned.kind,
      target,
      at_s: Math.round((start - loadStart) / 100) / 10,
      down_ms: Math.round(undone - start),
      recovered,
      recovery_ms: recovered ? Math.round(end - undone) : null,
      note,
    },
    affected,
    start,
    end,
    wallStart,
    wallEnd: Date.now(),
    logcat: null,
  };
}

/**
 * Injects the planned faults one after another, spread evenly over the run (the next one starts
 * once the previous has recovered), and compares each one's logcat lines after it recovered.
 */
export async function runFaultSchedule(
  world: FaultWorld,
  planned: readonly PlannedFault[],
  durationMs: number,
  loadStart: number,
  note: (line: string) => void,
): Promise<Injected[]> {
  const out: Injected[] = [];
  const every = durationMs / (planned.length + 1);
  for (const [i, p] of planned.entries()) {
    const wait = loadStart + every * (i + 1) - performance.now();
    if (wait > 0) {
      await sleep(wait);
    }
    note(`fault ${i + 1} of ${planned.length}: ${p.kind}${p.worker ? ` (${p.worker})` : ''}`);
    // What a client can read of the store before the fault: the lines logged up to this moment.
    const cut = threadtimeOf(Date.now());
    const before = world.logcat ? await storeCounts(world, cut).catch(() => null) : null;
    const f = await runFault(world, p, i, loadStart);
    if (world.logcat && f.report.recovered) {
      const lines = await compareLogcat(world, f).catch(() => null);
      const after =
        before === null || lines === null ? null : await storeCounts(world, cut).catch(() => null);
      if (lines !== null && before !== null && after !== null) {
        const sum = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
        const lost = [...before].reduce(
          (n, [serial, had]) => n + Math.max(0, had - (after.get(serial) ?? 0)),
          0,
        );
        f.logcat = { ...lines, store_before: sum(before), store_after: sum(after), store_lost: lost };
      }
    }
    note(
      f.report.recovered
        ? `${p.kind}: recovered ${f.report.recovery_ms} ms after it was undone${f.logcat ? `; logcat lines lost ${f.logcat.lost} of ${f.logcat.device_lines}; the store lost ${f.logcat.store_lost} of the ${f.logcat.store_before} lines a client could read before` : ''}`
        : `${p.kind}: NOT recovered${f.report.note ? ` (${f.report.note})` : ''}`,
    );
    out.push(f);
  }
  return out;
}

/**
 * The logcat lines each affected device logged from the fault to the recovery (read from the
 * device itself), compared with the lines droidbus stored for it in that time. Waits until the
 * store has caught up with the end of that time first.
 */
export async function compareLogcat(
  world: FaultWorld,
  fault: Injected,
): Promise<Pick<NonNullable<FaultReport['logcat']>, 'devices' | 'device_lines' | 'lost' | 'read_twice'>> {
  const from = threadtimeOf(fault.wallStart);
  const to = threadtimeOf(fault.wallEnd);
  let deviceLines = 0;
  let lost = 0;
  let twice = 0;
  for (const serial of fault.affected) {
    const session = world.sessionOf(serial);
    await caughtUp(session, serial, to);
    // With several servers the device is read through its own server, by its serial there.
    const group = world.servers?.find((g) => g.ids.includes(serial));
    const client = group?.server.client ?? world.adbServer.client;
    const onServer = group ? group.serials[group.ids.indexOf(serial)]! : serial;
    const read = await client.shell(onServer, sh`logcat -d -v threadtime -t ${from}`, {
      timeoutMs: 30_000,
      maxBytes: 64 * 1024 * 1024,
    });
    const onDevice = new Map<string, number>();
    for (const line of read.stdout.split('\n')) {
      const time = line.slice(0, 18);
      if (line === '' || isSeparator(line) || time < from || time > to) {
        continue;
      }
      const key = `${time}|${threadtimeLineKey(line)}`;
      onDevice.set(key, (onDevice.get(key) ?? 0) + 1);
      deviceLines++;
    }
    const stored = await storedLines(session, serial, from, to);
    for (const [key, n] of onDevice) {
      const have = stored.get(key) ?? 0;
      lost += Math.max(0, n - have);
    }
    for (const [key, n] of stored) {
      twice += Math.max(0, n - (onDevice.get(key) ?? 0));
    }
  }
  return { devices: fault.affected.length, device_lines: deviceLines, lost, read_twice: twice };
}

/** For every device: how many stored lines a client reads that were logged at or before `upTo`. */
async function storeCounts(world: FaultWorld, upTo: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const serial of world.serials) {
    const lines = await storedLines(world.sessionOf(serial), serial, '', upTo);
    out.set(
      serial,
      [...lines.values()].reduce((a, b) => a + b, 0),
    );
  }
  return out;
}

interface WireLine {
  seq?: number;
  time?: string;
  pid: number;
  tid: number;
  level: 'V' | 'D' | 'I' | 'W' | 'E' | 'F';
  tag: string;
  message: string;
}

/** Waits until droidbus has stored a line of `serial` logged at `to` or later. */
async function caughtUp(session: LoadSession, serial: string, to: string): Promise<void> {
  const deadline = Date.now() + CATCH_UP_DEADLINE_MS;
  while (Date.now() < deadline) {
    const r = await session.call('get_logcat_entries', { device_serial: serial, count: 1 });
    const newest = ((r.structured['entries'] ?? []) as WireLine[])[0];
    // Strictly later: every line up to `to` has then passed through the stream, which keeps order.
    if ((newest?.time ?? '').slice(5) > to) {
      return;
    }
    await sleep(PROBE_EVERY_MS);
  }
}

/** The lines droidbus stored for `serial` logged between `from` and `to`, by key, paging back. */
async function storedLines(
  session: LoadSession,
  serial: string,
  from: string,
  to: string,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let before: number | undefined;
  for (let page = 0; page < 200; page++) {
    const r = await session.call('get_logcat_entries', {
      device_serial: serial,
      count: 2_000,
      ...(before !== undefined ? { before_seq: before } : {}),
    });
    const entries = (r.structured['entries'] ?? []) as WireLine[];
    if (!r.ok || entries.length === 0) {
      break;
    }
    for (const e of entries) {
      const time = (e.time ?? '').slice(5);
      if (time >= from && time <= to) {
        const key = `${time}|${entryKey(e)}`;
        out.set(key, (out.get(key) ?? 0) + 1);
      }
    }
    const oldest = entries[0]!;
    if (
      (oldest.time ?? '').slice(5) < from ||
      r.structured['has_more'] !== true ||
      oldest.seq === undefined
    ) {
      break;
    }
    before = oldest.seq;
  }
  return out;
}

/**
 * The call figures of each fault: the affected devices' calls in flight when it struck and those
 * started before it recovered that failed; and the failures no fault explains (none expected).
 */
export function classify(
  faults: readonly Injected[],
  spans: readonly CallSpan[],
): { reports: FaultReport[]; unexplained: CallSpan[] } {
  const hits = (f: Injected, s: CallSpan): boolean =>
    f.report.fault !== 'device-drop' || (s.serial !== null && f.affected.includes(s.serial));
  const flying = (f: Injected, s: CallSpan): boolean => hits(f, s) && s.start < f.start && s.end > f.start;
  const during = (f: Injected, s: CallSpan): boolean => hits(f, s) && s.start >= f.start && s.start <= f.end;
  // A failed call belongs to the fault it was in flight for (a build that outlives one fault and
  // fails at the next), else to the one it started under.
  const owner = new Map<CallSpan, { fault: Injected; flying: boolean }>();
  for (const s of spans.filter((x) => x.code !== null)) {
    const f = faults.find((x) => flying(x, s)) ?? faults.find((x) => during(x, s));
    if (f) {
      owner.set(s, { fault: f, flying: flying(f, s) });
    }
  }
  const reports = faults.map((f): FaultReport => {
    const codes: Record<string, number> = {};
    const examples: Record<string, string> = {};
    let failedInFlight = 0;
    let failedDuring = 0;
    for (const [s, o] of owner) {
      if (o.fault !== f) {
        continue;
      }
      codes[s.code!] = (codes[s.code!] ?? 0) + 1;
      examples[s.code!] ??= `${s.tool}: ${s.text ?? ''}`;
      if (o.flying) {
        failedInFlight++;
      } else {
        failedDuring++;
      }
    }
    return {
      ...f.report,
      in_flight: spans.filter((s) => flying(f, s)).length,
      failed_in_flight: failedInFlight,
      failed_during: failedDuring,
      failed_by_code: codes,
      failed_examples: examples,
      logcat: f.logcat,
    };
  });
  const unexplained = spans.filter((s) => s.code !== null && !owner.has(s));
  return { reports, unexplained };
}
