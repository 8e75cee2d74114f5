/**
 * compare_debug_sessions: two sessions side by side — what differs in their builds, installs and
 * devices, their latest measured launches, their crash signatures, their exits, and where their
 * builds came from (commit, dirty tree, build files, toolchain and resolved dependency versions) —
 * and, without ids, the pair an agent usually wants: the newest session that launched without a
 * crash against the first later session of the same app that crashed.
 */
import type { ResponseOf } from '../../bus/registry.js';
import { SESSION_LIMITS, type BuildSource } from '../../bus/messages/sessions.js';
import type { IndexEntry, SessionFile } from '../../store/formats/debug-session.js';
import { describeActor } from './describe-actor.js';
import { summarize } from './session-model.js';
import { toSummary } from './session-views.js';

type Compare = ResponseOf<'sessions.compare'>;
type Diff = Compare['differences'][number];

/** Dependency changes listed at most. */
const MAX_DEPENDENCY_CHANGES = 100;

/** The pair the comparison picks by itself, or why there is none. */
export function defaultPair(
  entries: readonly IndexEntry[],
): { from: string; to: string; chosenBy: string } | { error: string } {
  const byAge = [...entries].sort((a, b) =>
    a.opened_at < b.opened_at ? -1 : a.opened_at > b.opened_at ? 1 : a.id < b.id ? -1 : 1,
  );
  const crashing = (e: IndexEntry): boolean => e.counts.crashes + e.counts.anrs > 0;
  const good = byAge.filter((e) => e.counts.launches > 0 && !crashing(e)).reverse();
  for (const g of good) {
    const later = byAge.find(
      (e) =>
        e.opened_at > g.opened_at &&
        crashing(e) &&
        e.project_root === g.project_root &&
        e.package === g.package &&
        e.module === g.module &&
        e.variant === g.variant,
    );
    if (later) {
      return {
        from: g.id,
        to: later.id,
        chosenBy: `${g.id} is the newest session that launched ${g.package} without a crash or ANR; ${later.id} is the first later session of the same project, package, module and variant that crashed`,
      };
    }
  }
  const crashes = byAge.filter(crashing).length;
  return {
    error: `No pair to compare: ${
      good.length === 0
        ? 'no session launched the app without a crash or ANR'
        : 'no session that launched the app without a crash or ANR was followed by a crashing session of the same project, package, module and variant'
    } (${entries.length} sessions, ${good.length} without crashes that launched, ${crashes} with crashes). Pass from and to to compare two sessions you choose (list_debug_sessions shows them).`,
  };
}

function latestLaunch(s: SessionFile): Compare['launch']['from'] {
  for (let i = s.events.length - 1; i >= 0; i--) {
    const e = s.events[i]!;
    const l = e.launch;
    if (e.kind === 'launch' && l && (l.total_ms !== null || l.displayed_ms !== null)) {
      return {
        seq: e.seq,
        at: e.at,
        device: l.device,
        activity: l.activity,
        restart: l.restart,
        total_ms: l.total_ms,
        wait_ms: l.wait_ms,
        displayed_ms: l.displayed_ms,
        launch_state: l.launch_state,
      };
    }
  }
  return null;
}

function compareLaunches(from: SessionFile, to: SessionFile): Compare['launch'] {
  const a = latestLaunch(from);
  const b = latestLaunch(to);
  if (a === null || b === null) {
    const missing = a === null && b === null ? 'neither session' : a === null ? from.id : to.id;
    return {
      from: a,
      to: b,
      comparable: false,
      delta_ms: null,
      note: `${missing} recorded no measured launch`,
    };
  }
  if (a.device !== b.device) {
    return {
      from: a,
      to: b,
      comparable: false,
      delta_ms: null,
      note: `the launches ran on different devices (${a.device}, ${b.device}); their times do not compare`,
    };
  }
  if (a.launch_state === null || b.launch_state === null || a.launch_state !== b.launch_state) {
    return {
      from: a,
      to: b,
      comparable: false,
      delta_ms: null,
      note: `the launches were not the same kind (${a.launch_state ?? 'unknown'} vs ${b.launch_state ?? 'unknown'}); compare a cold launch with a cold launch`,
    };
  }
  const delta =
    a.total_ms !== null && b.total_ms !== null
      ? b.total_ms - a.total_ms
      : a.displayed_ms !== null && b.displayed_ms !== null
        ? b.displayed_ms - a.displayed_ms
        : null;
  return {
    from: a,
    to: b,
    comparable: delta !== null,
    delta_ms: delta,
    note: delta === null ? 'the two launches measured different times (total vs Displayed)' : null,
  };
}

function signatures(s: SessionFile): {
  list: Compare['crashes']['from'];
  all: Set<string>;
  truncated: boolean;
} {
  const by = new Map<string, Compare['crashes']['from'][number]>();
  for (const c of s.crashes) {
    const key = c.signature ?? c.title ?? c.summary;
    const hit = by.get(key);
    if (hit) {
      hit.count++;
    } else {
      by.set(key, { signature: key, title: c.title ?? c.summary, kind: c.kind, count: 1 });
    }
  }
  const list = [...by.values()].sort((x, y) => y.count - x.count || (x.signature < y.signature ? -1 : 1));
  return {
    list: list.slice(0, SESSION_LIMITS.maxComparedSignatures),
    all: new Set(by.keys()),
    truncated: list.length > SESSION_LIMITS.maxComparedSignatures,
  };
}

function exitReasons(s: SessionFile): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of s.events) {
    if (e.kind === 'exit' && e.exit) {
      const reason = e.exit.reason_label ?? e.exit.reason;
      out[reason] = (out[reason] ?? 0) + 1;
    }
  }
  return out;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function differences(from: SessionFile, to: SessionFile): Diff[] {
  const fields: [string, (s: SessionFile) => unknown][] = [
    ['build_id', (s) => s.build?.id ?? s.install.build_id],
    ['task', (s) => s.build?.task ?? null],
    ['module', (s) => s.module],
    ['variant', (s) => s.variant],
    ['version_code', (s) => s.install.version_code],
    ['apk_sha256', (s) => s.install.apk_sha256],
    ['mapping_sha256', (s) => s.build?.mapping_sha256 ?? null],
    ['map_ids', (s) => s.build?.map_ids ?? null],
    ['device', (s) => s.device],
    ['device_model', (s) => s.device_model],
    ['installed_by', (s) => describeActor(s.install.installed_by)],
    ['recorded_by', (s) => s.recorded_by],
  ];
  return fields.flatMap(([field, get]) => {
    const a = get(from);
    const b = get(to);
    return same(a, b) ? [] : [{ field, from: a, to: b }];
  });
}

function provenanceSide(s: SessionFile): NonNullable<Compare['provenance']>['from'] {
  const src = s.build?.source ?? null;
  if (s.build === null || src === null) {
    return null;
  }
  return {
    build_id: s.build.id,
    commit: src.commit,
    branch: src.branch,
    dirty: src.uncommitted_changes,
    changed_file_count: src.changed_files.length,
    no_commit_because: src.no_commit_because,
    gradle_version: src.gradle_version,
    jdk_version: src.jdk_version,
    agp_version: src.agp_version,
    dependencies: src.dependencies?.count ?? null,
  };
}

function buildFileChanges(
  a: BuildSource,
  b: BuildSource,
): NonNullable<Compare['provenance']>['changed_build_files'] {
  if (a.build_files === null || b.build_files === null) {
    return [];
  }
  const before = new Map(a.build_files.map((f) => [f.path, f.sha256]));
  const after = new Map(b.build_files.map((f) => [f.path, f.sha256]));
  const out: NonNullable<Compare['provenance']>['changed_build_files'] = [];
  for (const [p, h] of after) {
    const old = before.get(p);
    if (old === undefined) {
      out.push({ path: p, change: 'added' });
    } else if (old !== h) {
      out.push({ path: p, change: 'changed' });
    }
  }
  for (const p of before.keys()) {
    if (!after.has(p)) {
      out.push({ path: p, change: 'removed' });
    }
  }
  return out.sort((x, y) => (x.path < y.path ? -1 : 1));
}

function dependencyChanges(
  a: BuildSource,
  b: BuildSource,
): NonNullable<Compare['provenance']>['dependency_changes'] {
  if (a.dependencies === null || b.dependencies === null) {
    return [];
  }
  const va = a.dependencies.versions;
  const vb = b.dependencies.versions;
  const modules = [...new Set([...Object.keys(va), ...Object.keys(vb)])].sort();
  return modules
    .filter((m) => va[m] !== vb[m])
    .slice(0, MAX_DEPENDENCY_CHANGES)
    .map((m) => ({ module: m, from: va[m] ?? null, to: vb[m] ?? null }));
}

function compareProvenance(from: SessionFile, to: SessionFile): Compare['provenance'] {
  const a = provenanceSide(from);
  const b = provenanceSide(to);
  if (a === null && b === null) {
    return null;
  }
  const diffs: Diff[] = [];
  const notes: string[] = [];
  let sameCommit: boolean | null = null;
  let files: NonNullable<Compare['provenance']>['changed_build_files'] = [];
  let deps: NonNullable<Compare['provenance']>['dependency_changes'] = [];
  if (a !== null && b !== null) {
    for (const field of [
      'commit',
      'branch',
      'dirty',
      'no_commit_because',
      'gradle_version',
      'jdk_version',
      'agp_version',
    ] as const) {
      if (!same(a[field], b[field])) {
        diffs.push({ field, from: a[field], to: b[field] });
      }
    }
    sameCommit = a.commit !== null && b.commit !== null ? a.commit === b.commit : null;
    const sa = from.build!.source!;
    const sb = to.build!.source!;
    files = buildFileChanges(sa, sb);
    deps = dependencyChanges(sa, sb);
    if (sameCommit === true && (a.dirty === true || b.dirty === true)) {
      const which =
        a.dirty === true && b.dirty === true
          ? 'both builds'
          : a.dirty === true
            ? `${from.id}'s build`
            : `${to.id}'s build`;
      notes.push(
        `the same commit was built, but ${which} had uncommitted changes (${a.dirty === true ? a.changed_file_count : b.changed_file_count} files); the code differs in what those changes were`,
      );
    }
    if (a.build_id === b.build_id) {
      notes.push('both sessions installed the same build');
    } else if (from.install.apk_sha256 === to.install.apk_sha256) {
      notes.push('the two builds wrote the same APK: what differs is the device or what happened on it');
    }
    if (sa.build_files === null || sb.build_files === null) {
      notes.push('build-file hashes were not recorded for one of the builds (it predates them)');
    } else if (files.length > 0) {
      notes.push(`${files.length} build file${files.length === 1 ? '' : 's'} changed between the builds`);
    }
  } else {
    notes.push(`only ${a !== null ? from.id : to.id}'s build recorded where it came from`);
  }
  return {
    from: a,
    to: b,
    same_commit: sameCommit,
    differences: diffs,
    changed_build_files: files,
    dependency_changes: deps,
    notes,
  };
}

function notRecorded(from: SessionFile, to: SessionFile, provenance: Compare['provenance']): string[] {
  const out: string[] = [];
  const sides = [from, to];
  if (sides.some((s) => s.build === null)) {
    out.push(
      `the build of ${sides
        .filter((s) => s.build === null)
        .map((s) => s.id)
        .join(' and ')} (no build record matched its APK)`,
    );
  }
  if (provenance === null) {
    out.push('where the builds came from (neither build recorded it)');
    return out;
  }
  const src = sides.map((s) => s.build?.source ?? null);
  if (src.some((x) => x !== null && x.dependencies === null)) {
    out.push(
      'resolved dependency versions (the build output showed no dependency report; a build that runs `:app:dependencies` with its task records them)',
    );
  }
  if (src.some((x) => x !== null && x.agp_version === null)) {
    out.push('the AGP version (neither the build output nor the APK named it)');
  }
  if (src.some((x) => x !== null && x.jdk_version === null)) {
    out.push('the JDK version');
  }
  if (src.some((x) => x !== null && x.build_files === null)) {
    out.push('build-file hashes');
  }
  if (src.some((x) => x !== null && x.uncommitted_changes === true)) {
    out.push('the content of uncommitted changes (only which files changed is recorded)');
  }
  return out;
}

/** The comparison of two sessions. */
export function compareSessions(
  from: SessionFile,
  to: SessionFile,
  chosenBy: string | null,
  now: number,
): Compare {
  const sa = signatures(from);
  const sb = signatures(to);
  const provenance = compareProvenance(from, to);
  return {
    chosen_by: chosenBy,
    from: toSummary(summarize(from), now),
    to: toSummary(summarize(to), now),
    differences: differences(from, to),
    launch: compareLaunches(from, to),
    crashes: {
      from: sa.list,
      to: sb.list,
      new_in_to: [...sb.all].filter((x) => !sa.all.has(x)).slice(0, SESSION_LIMITS.maxComparedSignatures),
      gone_in_to: [...sa.all].filter((x) => !sb.all.has(x)).slice(0, SESSION_LIMITS.maxComparedSignatures),
      truncated: sa.truncated || sb.truncated,
    },
    exits: { from: exitReasons(from), to: exitReasons(to) },
    provenance,
    not_recorded: notRecorded(from, to, provenance),
  };
}
