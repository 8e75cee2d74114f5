/**
 * The logcat core the logcat actor runs: pure modules, no bus or actor code. Everything returned to
 * callers (entries, crashes, groups, stats, dump records) is plain data, safe to post across threads.
 *
 * Typical actor use: one `LogStore` and one `CrashGroups` for all devices; per streamed device a
 * `LogcatPipeline` fed with the adb stream's chunks (`push`), ticked by a timer (`tick`, ~1 s), and
 * ended when the stream stops (`end`); queries through `queryLogs`, crashes through
 * `store.crashes()` and `groups.list()/get()`.
 */
export type {
  LogLevel,
  LogCategory,
  LogEntry,
  LaunchTime,
  Crash,
  CrashKind,
  CrashGroup,
  JavaThrowable,
} from './logcat-types.js';
export { LEVEL_RANK, LEVELS } from './logcat-types.js';

export {
  LogcatParser,
  parseLogcat,
  isGarbageLine,
  type LogFormat,
  type ParserOptions,
  type ParserStats,
} from './logcat-parse.js';
export { LogTimeClock, formatLogTime } from './logcat-time.js';
export {
  LogEnricher,
  extractJson,
  parseLaunchTime,
  parseDurationMs,
  MAX_JSON_CHARS,
  type EnricherOptions,
} from './logcat-enrich.js';
export { PidMap, parsePs, packageOfProcess, type PsProcess } from './pid-map.js';
export { CrashDetector, type CrashDetectorOptions, type DetectedCrash } from './crash-detect.js';
export { parseJavaTrace, parseTombstone, parseFatalSignal, parseAnr, splitThrowable } from './crash-trace.js';
export {
  CrashGroups,
  crashSignature,
  crashGroupId,
  nativeFrameKey,
  normalizeAnrReason,
  SIGNATURE_FRAMES,
  type CrashGroupsOptions,
  type CrashGroupFilter,
} from './crash-group.js';
export { LogStore, entryBytes, type LogStoreOptions, type LogStats, type Counted } from './log-store.js';
export {
  compileLogcatQuery,
  parseLevelName,
  LogcatQueryError,
  type QueryContext,
  type EntryPredicate,
} from './logcat-query.js';
export {
  queryLogs,
  compileLogFilter,
  DEFAULT_ENTRY_COUNT,
  MAX_ENTRY_COUNT,
  type LogQueryParams,
  type LogQueryResult,
} from './log-query.js';
export { LogcatPipeline, type PipelineOptions, type PushResult } from './logcat-pipeline.js';
export {
  parseExitInfo,
  summarizeExitInfo,
  formatExitInfoLine,
  parseSizeKb,
  FAILURE_REASONS,
  type ExitInfoRecord,
} from './exit-info.js';
export { parseMeminfo, type MeminfoSummary, type MemCategory, type HeapUsage } from './meminfo.js';
export {
  parsePackageDump,
  type PackageInfo,
  type PermissionState,
  type PackageUserState,
} from './package-dump.js';
