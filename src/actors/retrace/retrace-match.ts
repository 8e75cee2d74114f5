import type { RetraceOutcome } from '../../bus/messages/retrace.js';
import type { InstallRecord } from '../../store/installed-builds.js';
import type { KeptMapping } from '../../store/mappings.js';
import type { DeviceApk } from '../device-apk.js';

export type { DeviceApk } from '../device-apk.js';

/**
 * Which kept mapping deobfuscates a crash, decided the way the reference decides it: by the
 * trace's `r8-map-id-…` frames (no device call); else by the SHA-256 of the APK the device has
 * installed, among droidbus's installs and the kept builds' APKs; else — only when the device
 * cannot hash its APK — by droidbus's install record, checked against the device's versionCode and
 * lastUpdateTime. Anything uncertain is refused with the reason; nothing is guessed.
 */

/** A build's APK as the build history lists it. */
export interface BuiltApkRef {
  build_id: string;
  sha256: string;
  module: string | null;
  variant: string | null;
}

export interface MatchSources {
  mappings: KeptMapping[];
  builtApks: BuiltApkRef[];
  installs: InstallRecord[];
  /** Asks the device (only when the trace names no map id). */
  deviceApk(): Promise<DeviceApk>;
  /**
   * The mapping with this map id in the project's build outputs, kept now (a build droidbus did not
   * run: Android Studio, a terminal), and where it was found; asked only when no kept mapping has it.
   */
  outputMapping?(mapId: string): Promise<{ mapping: KeptMapping; where: string } | null>;
}

export type MatchDecision =
  | { ok: true; mapping: KeptMapping; matched_by: 'map_id' | 'device_hash' | 'install_record'; how: string }
  | { ok: false; status: 'refused' | 'unavailable'; reason: string };

/** The distinct map ids the trace's frames name (`(r8-map-id-628898e:12)`). */
export function mapIdsInTrace(trace: string): string[] {
  return [...new Set([...trace.matchAll(/r8-map-id-([0-9a-f]{4,64})/g)].map((m) => m[1]!))];
}

function mappingOfBuild(sources: MatchSources, buildId: string, variant: string | null): KeptMapping | null {
  const own = sources.mappings.filter((m) => m.build_id === buildId);
  if (own.length <= 1) {
    return own[0] ?? null;
  }
  return own.find((m) => m.variant === variant) ?? null;
}

const short = (sha: string): string => sha.slice(0, 12);

type Apk = Awaited<ReturnType<MatchSources['deviceApk']>>;

/** By the one map id the trace names: a kept mapping with it, else one in the project's outputs. */
async function byMapId(id: string, sources: MatchSources): Promise<MatchDecision> {
  const found = sources.mappings.filter((m) => m.map_id === id);
  const distinct = new Set(found.map((m) => m.sha256));
  if (distinct.size === 0) {
    const outside = sources.outputMapping ? await sources.outputMapping(id) : null;
    if (outside) {
      return {
        ok: true,
        mapping: outside.mapping,
        matched_by: 'map_id',
        how: `matched by the trace's r8-map-id frames (${id}) against ${outside.where} in the project's build outputs (a build droidbus did not run); no device call was needed`,
      };
    }
    return {
      ok: false,
      status: 'refused',
      reason: `no kept build and no mapping in the project's build outputs has map id ${id}: the build on the device is not this project's current one; build and install the variant with run_gradle_task and install_apk so droidbus keeps its mapping`,
    };
  }
  if (distinct.size > 1) {
    return { ok: false, status: 'refused', reason: `several different kept mappings claim map id ${id}` };
  }
  const mapping = found[found.length - 1]!;
  return {
    ok: true,
    mapping,
    matched_by: 'map_id',
    how: `matched by the trace's r8-map-id frames (${id}); no device call was needed`,
  };
}

/** By the APK hash the device reports: the builds that wrote or installed those bytes. */
function byDeviceHash(
  apk: Extract<Apk, { kind: 'hash' }>,
  device: string,
  sources: MatchSources,
): MatchDecision {
  const builtIds = new Set<string>();
  for (const install of sources.installs) {
    if (install.apk_sha256 === apk.sha256 && install.build_id) {
      builtIds.add(install.build_id);
    }
  }
  const byBuild = sources.builtApks.filter((b) => b.sha256 === apk.sha256);
  byBuild.forEach((b) => builtIds.add(b.build_id));
  if (builtIds.size === 0) {
    return {
      ok: false,
      status: 'refused',
      reason: `the APK on ${device} (sha256 ${short(apk.sha256)}…) matches nothing droidbus built or installed; build and install it with droidbus to deobfuscate its crashes`,
    };
  }
  // The same APK bytes can come from several builds (an up-to-date rebuild): any of them has the mapping.
  for (const buildId of builtIds) {
    const ref = byBuild.find((b) => b.build_id === buildId);
    const mapping = mappingOfBuild(sources, buildId, ref?.variant ?? null);
    if (mapping) {
      return {
        ok: true,
        mapping,
        matched_by: 'device_hash',
        how: `matched by the APK hash ${device} reports (sha256 ${short(apk.sha256)}…)`,
      };
    }
  }
  return {
    ok: false,
    status: 'unavailable',
    reason: `the APK on ${device} comes from build ${[...builtIds].join(', ')}, which wrote no R8 mapping (not minified: its frames are not obfuscated)`,
  };
}

/** By droidbus's install record, when the device cannot hash its APK: checked against versionCode and lastUpdateTime. */
function byInstallRecord(
  apk: Extract<Apk, { kind: 'cannot_hash' }>,
  device: string,
  pkg: string,
  sources: MatchSources,
): MatchDecision {
  const record = [...sources.installs].reverse().find((r) => r.device === device && r.package === pkg);
  if (!record) {
    return {
      ok: false,
      status: 'refused',
      reason: `${device} cannot hash its APK (${apk.reason}) and droidbus has no record of installing ${pkg} there`,
    };
  }
  if (record.version_code !== null && apk.version_code !== null && record.version_code !== apk.version_code) {
    return {
      ok: false,
      status: 'refused',
      reason: `${pkg} on ${device} is versionCode ${apk.version_code}, not the ${record.version_code} droidbus installed; it was reinstalled since`,
    };
  }
  if (
    record.device_last_update_ms !== null &&
    apk.last_update_ms !== null &&
    Math.abs(record.device_last_update_ms - apk.last_update_ms) > 2_000
  ) {
    return {
      ok: false,
      status: 'refused',
      reason: `${pkg} on ${device} was updated after droidbus installed it (lastUpdateTime differs); it was reinstalled since`,
    };
  }
  if (!record.build_id) {
    return {
      ok: false,
      status: 'refused',
      reason: `droidbus's install of ${pkg} on ${device} matched no build, so its mapping is unknown`,
    };
  }
  const mapping = mappingOfBuild(sources, record.build_id, record.variant);
  if (!mapping) {
    return {
      ok: false,
      status: 'unavailable',
      reason: `build ${record.build_id} wrote no R8 mapping (not minified)`,
    };
  }
  return {
    ok: true,
    mapping,
    matched_by: 'install_record',
    how: `matched by droidbus's install record (the device cannot hash its APK: ${apk.reason}); its versionCode and lastUpdateTime agree`,
  };
}

/** Decides the mapping for one crash (see the module comment). */
export async function matchMapping(
  trace: string,
  device: string | null,
  pkg: string | null,
  sources: MatchSources,
): Promise<MatchDecision> {
  const ids = mapIdsInTrace(trace);
  if (ids.length > 1) {
    return {
      ok: false,
      status: 'refused',
      reason: `the trace's frames name several R8 map ids (${ids.join(', ')}); droidbus will not guess which build each frame came from`,
    };
  }
  if (ids.length === 1) {
    return byMapId(ids[0]!, sources);
  }
  if (device === null || pkg === null) {
    return {
      ok: false,
      status: 'unavailable',
      reason:
        'the trace names no R8 map id, and the crash has no device and package to ask which APK is installed',
    };
  }
  const apk = await sources.deviceApk();
  switch (apk.kind) {
    case 'not_installed':
      return {
        ok: false,
        status: 'unavailable',
        reason: `${pkg} is not installed on ${device} any more, so droidbus cannot tell which build crashed`,
      };
    case 'split':
      return {
        ok: false,
        status: 'refused',
        reason: `${pkg} is installed on ${device} as split APKs (${apk.paths.length} files); droidbus matches single APKs only and will not guess`,
      };
    case 'hash':
      return byDeviceHash(apk, device, sources);
    case 'cannot_hash':
      return byInstallRecord(apk, device, pkg, sources);
    default: {
      const never: never = apk;
      return { ok: false, status: 'refused', reason: `unexpected device answer ${JSON.stringify(never)}` };
    }
  }
}

/** The outcome of a crash that was not deobfuscated: its trace as logcat printed it. */
export function notRetraced(
  trace: string,
  device: string | null,
  status: RetraceOutcome['status'],
  reason: string,
): RetraceOutcome {
  return {
    status,
    trace,
    mapping_line: `Not deobfuscated: ${reason}`,
    build_id: null,
    module: null,
    variant: null,
    map_id: null,
    mapping_sha256: null,
    matched_by: null,
    device,
    reason,
  };
}
