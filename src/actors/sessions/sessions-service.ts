/**
 * The sessions actor's work: it turns what happens to apps (installs, launches, stops, crashes and
 * ANRs from the logcat actor, exits from `dumpsys activity exit-info`, devices coming and going,
 * agents' device tool calls) into debug-session changes; session-reads.ts answers the session tools. Every
 * change goes through the journal (ordered, batched, under the sessions lock, atomic), so the
 * host and standalone servers record into the same files without losing each other's events.
 */
import { exchangeLine } from '../../util/exchange-line.js';
import { chainReads, READS, readCommand } from '../../device/reads.js';
import type { EventOf, PayloadOf, ResponseOf } from '../../bus/registry.js';
import type { InstallRecord } from '../../bus/messages/app-events.js';
import type { CrashContext } from '../../bus/messages/logcat.js';
import { SESSION_LIMITS, type SessionBuild } from '../../bus/messages/sessions.js';
import { readHistory } from '../../store/build-history.js';
import type { IndexEntry, SessionFile } from '../../store/formats/debug-session.js';
import { readIndex, readSessionFile } from '../../store/debug-sessions.js';
import type { ActorContext } from '../actor.js';
import { deviceOf } from '../../device/adb-instance.js';
import {
  attributeByDeviceApk,
  attributeByProcessStart,
  deviceApk,
  type AttributionOutcome,
} from './crash-attribution.js';
import { SessionJournal } from './session-journal.js';
import {
  ageSession,
  addCrash,
  buildSnapshot,
  appendEvent,
  isLive,
  noteExitKey,
  setState,
  summarize,
} from './session-model.js';
import { SessionReads } from './session-reads.js';

/** How long after a crash or a stop the exit-info dump is read (the system records the exit first). */
const EXIT_READ_DELAY_MS = 1_500;
/** How often idle, gone and stale sessions are looked at. */
const SWEEP_MS = 10 * 60_000;
/** A device check (APK hash, properties) gives up after this. */
const DEVICE_CHECK_MS = 15_000;

/** The live sessions of a device (and package), newest last. */
function liveOf(device: string, pkg?: string | null): (entries: readonly IndexEntry[]) => string[] {
  return (entries) =>
    entries
      .filter(
        (e) => e.device === device && (pkg === undefined || pkg === null || e.package === pkg) && isLive(e),
      )
      .map((e) => e.id);
}

function byId(id: string): (entries: readonly IndexEntry[]) => string[] {
  return (entries) => (entries.some((e) => e.id === id) ? [id] : []);
}

/** Local date-time `YYYY-MM-DD HH:MM:SS(.mmm)` as epoch ms (the device's clock, the host's zone). */
function localMs(text: string | null): number | null {
  if (text === null) {
    return null;
  }
  const ms = Date.parse(text.trim().replace(' ', 'T'));
  return Number.isFinite(ms) ? ms : null;
}

/** The sessions actor's state and work (see the module comment). */
export class SessionsService {
  readonly journal: SessionJournal;
  /** The session tools' answers (session-reads.ts), over the same files and streams. */
  readonly reads: SessionReads;
  private readonly streaming = new Set<string>();
  private crashChain: Promise<void> = Promise.resolve();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly abort = new AbortController();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly ctx: ActorContext) {
    this.journal = new SessionJournal(ctx.log);
    this.reads = new SessionReads(this.journal, this.streaming);
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Stops the timers; changes already queued are written. */
  async shutdown(): Promise<void> {
    clearInterval(this.sweeper);
    this.timers.forEach((t) => clearTimeout(t));
    this.timers.clear();
    this.abort.abort();
    await this.crashChain;
    await this.journal.idle();
  }

  private later(ms: number, work: () => Promise<void>): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      work().catch((err: unknown) =>
        this.ctx.log.warn('a delayed session update failed', { error: String(err) }),
      );
    }, ms);
    t.unref();
    this.timers.add(t);
  }

  private warn(what: string): (err: unknown) => void {
    return (err) => this.ctx.log.warn(what, { error: String(err) });
  }

  /** An install: a new session (superseding the live one of the device and package). */
  onInstalled(install: InstallRecord): void {
    let build: SessionBuild | null = null;
    let status: SessionFile['build_status'] = 'unattributed';
    if (install.build_id !== null) {
      const record = readHistory().find((r) => r.id === install.build_id);
      build = record ? buildSnapshot(record, install) : null;
      status = record ? 'recorded' : 'no_build_record';
    }
    this.journal
      .open(install, build, status)
      .then((id) => this.learnDevice(id, install.device))
      .catch(this.warn('could not open a debug session'));
  }

  /** Fills in the device's model and AVD name (read once, after the session opened). */
  private async learnDevice(id: string, serial: string): Promise<void> {
    let props: string;
    try {
      const r = await deviceOf(serial).shell(
        chainReads(readCommand(READS.model), readCommand(READS.avdName), readCommand(READS.avdNameOld)),
        { signal: this.abort.signal, timeoutMs: DEVICE_CHECK_MS },
      );
      props = r.stdout;
    } catch (err) {
      this.ctx.log.debug('could not read the device properties', { serial, error: String(err) });
      return;
    }
    const [model, avd1, avd2] = props.split('\n').map((l) => l.trim());
    const avd = avd1 || avd2 || null;
    await this.journal.update(byId(id), (s) => {
      s.device_model = model || null;
      s.avd_name = avd;
      return true;
    });
  }

  /** A launch (launch_app, restart_app, a run configuration). */
  onLaunched(e: EventOf<'app.launched'>): void {
    const time =
      e.total_ms !== null
        ? `${e.total_ms} ms${e.launch_state ? ` (${e.launch_state})` : ''}`
        : e.displayed_ms !== null
          ? `Displayed in ${e.displayed_ms} ms`
          : 'no time reported';
    this.journal
      .update(liveOf(e.device, e.package), (s, now) => {
        appendEvent(
          s,
          {
            kind: 'launch',
            by: e.by,
            summary: `${e.restart ? 'restarted' : 'launched'} ${e.activity ?? e.package}: ${time}`,
            launch: {
              device: e.device,
              activity: e.activity,
              restart: e.restart,
              total_ms: e.total_ms,
              wait_ms: e.wait_ms,
              displayed_ms: e.displayed_ms,
              launch_state: e.launch_state,
            },
          },
          now,
        );
        return true;
      })
      .catch(this.warn('could not record a launch'));
  }

  /** A stop (stop_app, or restart_app with clear_data). */
  onStopped(e: EventOf<'app.stopped'>): void {
    this.journal
      .update(liveOf(e.device, e.package), (s, now) => {
        appendEvent(
          s,
          {
            kind: 'stop',
            by: e.by,
            summary: e.clear_data ? `stopped ${e.package} and cleared its data` : `stopped ${e.package}`,
            stop: { clear_data: e.clear_data },
          },
          now,
        );
        return true;
      })
      .then((ids) => {
        if (ids.length > 0) {
          this.later(EXIT_READ_DELAY_MS, () => this.readExits(e.device, e.package));
        }
      })
      .catch(this.warn('could not record a stop'));
  }

  /**
   * A request the network capture saw ended: into the live sessions of its device (of the capture's
   * package, when it was started for one), so the timeline shows it between the taps and the crash.
   */
  onExchange(e: EventOf<'network.exchange'>): void {
    const { entry } = e;
    this.journal
      .update(liveOf(e.device, e.package), (s, now) => {
        appendEvent(
          s,
          {
            kind: 'network',
            by: null,
            summary: exchangeLine(entry),
            network: {
              id: entry.id,
              method: entry.method,
              url: entry.url,
              status: entry.status,
              duration_ms: entry.duration_ms,
              failure: entry.failure,
            },
          },
          now,
        );
        return true;
      })
      .catch(this.warn('could not record a request'));
  }

  /** A crash or ANR the logcat actor read: into the live session of its device and package. */
  onCrash(e: EventOf<'logcat.crash'>): void {
    if (e.device === null || e.package === null) {
      return;
    }
    const device = e.device;
    const pkg = e.package;
    // One after another, so crashes keep their order and each sees the sessions the previous left.
    this.crashChain = this.crashChain
      .then(() => this.recordCrash(device, pkg, e))
      .catch(this.warn('could not record a crash'));
  }

  private async recordCrash(device: string, pkg: string, e: EventOf<'logcat.crash'>): Promise<void> {
    await this.journal.idle();
    const index = readIndex(summarize);
    const target = index.sessions.filter((x) => x.device === device && x.package === pkg && isLive(x)).pop();
    if (target === undefined) {
      return;
    }
    const session = readSessionFile(target.id);
    if (session === null) {
      return;
    }
    let context: CrashContext;
    try {
      context = await this.ctx.bus.request('logcat.crash_context', {
        serial: device,
        seq: e.seq,
        group_id: e.group_id,
        pid: e.pid,
        package: pkg,
        before: SESSION_LIMITS.linesBeforeCrash,
        max_lines: SESSION_LIMITS.maxCrashLines,
      });
    } catch (err) {
      this.ctx.log.debug('could not read the lines around a crash', { error: String(err) });
      context = {
        found: false,
        kind: e.kind,
        time: '',
        ts: 0,
        before: [],
        lines: [],
        truncated: false,
        signature: null,
        title: null,
        process_start: null,
      };
    }
    const byStart = attributeByProcessStart(session.install, context, e.pid);
    const outcome: AttributionOutcome = byStart
      ? { attribution: byStart, closeBecause: null }
      : attributeByDeviceApk(session.install, await deviceApk(device, pkg, this.abort.signal));
    const key = `${e.pid}|${e.group_id}|${context.time || e.seq}`;
    await this.journal.update(byId(target.id), (s, now) => {
      const added = addCrash(
        s,
        {
          kind: e.kind,
          time: context.time,
          pid: e.pid,
          group_id: e.group_id,
          summary: e.summary,
          signature: context.signature,
          title: context.title,
          attribution: outcome.attribution,
          lines: [...context.before, ...context.lines],
          lines_before: context.before.length,
          truncated: context.truncated,
          key,
        },
        now,
      );
      if (outcome.closeBecause !== null && isLive(s)) {
        setState(s, 'closed', outcome.closeBecause, now);
        return true;
      }
      return added;
    });
    this.later(EXIT_READ_DELAY_MS, () => this.readExits(device, pkg));
  }

  /** Adds the exits `dumpsys activity exit-info` reports since the session's install. */
  private async readExits(device: string, pkg: string): Promise<void> {
    let info: ResponseOf<'logcat.exit_info'>;
    try {
      info = await this.ctx.bus.request('logcat.exit_info', { serial: device, package: pkg, limit: 10 });
    } catch (err) {
      this.ctx.log.debug('could not read exit-info', { device, error: String(err) });
      return;
    }
    if (!info.supported || info.records.length === 0) {
      return;
    }
    const records = [...info.records].reverse();
    await this.journal.update(liveOf(device, pkg), (s, now) => {
      const since =
        s.install.device_last_update_ms !== null
          ? s.install.device_last_update_ms - 999
          : Date.parse(s.opened_at) - 5_000;
      let changed = false;
      for (const r of records) {
        const at = localMs(r.timestamp);
        // The kill an update makes is the previous install's exit, recorded as the new one lands.
        if (at === null || at < since || /PACKAGE[ _]UPDATE/i.test(`${r.reason} ${r.subreason ?? ''}`)) {
          continue;
        }
        if (!noteExitKey(s, `${r.timestamp}|${r.pid}|${r.reason}`)) {
          continue;
        }
        appendEvent(
          s,
          {
            kind: 'exit',
            by: null,
            summary: `exit: ${r.line}`,
            exit: {
              reason: r.reason,
              reason_label: r.reason_label,
              subreason: r.subreason,
              pid: r.pid,
              timestamp: r.timestamp,
              status: r.status,
              description: r.description,
            },
          },
          now,
        );
        changed = true;
      }
      return changed;
    });
  }

  /** A device changed state: gone and back are recorded; back, the install is checked again. */
  onDeviceState(serial: string, state: string): void {
    if (state === 'gone') {
      this.journal
        .update(liveOf(serial), (s, now) => {
          if (s.device_gone_since !== null) {
            return false;
          }
          s.device_gone_since = new Date(now).toISOString();
          appendEvent(s, { kind: 'device_gone', by: null, summary: `adb no longer lists ${serial}` }, now);
          return true;
        })
        .catch(this.warn('could not record a device leaving'));
      return;
    }
    if (state !== 'device') {
      return;
    }
    this.journal
      .update(liveOf(serial), (s, now) => {
        if (s.device_gone_since === null) {
          return false;
        }
        s.device_gone_since = null;
        appendEvent(s, { kind: 'device_back', by: null, summary: `${serial} is back` }, now);
        return true;
      })
      .then((ids) => Promise.all(ids.map((id) => this.checkInstall(id))))
      .catch(this.warn('could not record a device coming back'));
  }

  /** Closes a session whose install is no longer what the device has (uninstalled, or replaced). */
  private async checkInstall(id: string): Promise<void> {
    const s = readSessionFile(id);
    if (s === null || !isLive(s)) {
      return;
    }
    const outcome = attributeByDeviceApk(s.install, await deviceApk(s.device, s.package, this.abort.signal));
    if (outcome.closeBecause !== null) {
      const reason = outcome.closeBecause;
      await this.journal.update(byId(id), (x, now) => {
        if (!isLive(x)) {
          return false;
        }
        setState(x, 'closed', reason, now);
        return true;
      });
    }
  }

  /** A device stream started or stopped (crashes are recorded only from streamed devices). */
  onLogcatState(serial: string, state: string): void {
    if (state === 'streaming') {
      this.streaming.add(serial);
    } else if (state === 'stopped') {
      this.streaming.delete(serial);
    }
  }

  /** An agent's device tool call: into the live sessions of its device (and package). */
  async agentAction(p: PayloadOf<'sessions.agent_action'>): Promise<ResponseOf<'sessions.agent_action'>> {
    let serial = p.serial;
    if (serial === null) {
      // Only worth asking adb when some session could take it.
      const live = readIndex(summarize).sessions.some((e) => isLive(e));
      if (!live) {
        return { sessions: [], serial: null };
      }
      const { devices } = await this.ctx.bus.request('devices.list', {});
      const online = devices.filter((d) => d.state === 'device');
      if (online.length !== 1) {
        return { sessions: [], serial: null };
      }
      serial = online[0]!.serial;
    }
    const device = serial;
    // Most device tool calls find no session: answer those without taking the lock (unless a
    // change of this process, such as an install, is still on its way to disk).
    if (!this.journal.busy && liveOf(device, p.package)(readIndex(summarize).sessions).length === 0) {
      return { sessions: [], serial: device };
    }
    const ids = await this.journal.update(liveOf(device, p.package), (s, now) => {
      appendEvent(
        s,
        {
          kind: 'agent_action',
          by: p.actor,
          summary: `${p.tool} (${p.kind}) ${p.success ? 'succeeded' : `failed: ${p.status}`} in ${Math.round(p.duration_ms)} ms`,
          action: {
            tool: p.tool,
            kind: p.kind,
            success: p.success,
            status: p.status,
            duration_ms: Math.round(p.duration_ms),
            serial: device,
            ...(p.steps.length > 0 ? { steps: p.steps } : {}),
          },
        },
        now,
      );
      return true;
    });
    return { sessions: ids, serial: device };
  }

  /** Marks idle sessions, ends those whose device has been gone for long or that went stale. */
  async sweep(): Promise<string[]> {
    if (!readIndex(summarize).sessions.some((e) => isLive(e))) {
      return [];
    }
    return this.journal.update((entries) => entries.filter((e) => isLive(e)).map((e) => e.id), ageSession);
  }
}
