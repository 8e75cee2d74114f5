/**
 * The one logger. It writes to stderr only: stdout is the MCP protocol in every droidbus process
 * (a worker thread's console output reaches the parent's stdout too).
 */
const LEVELS = { error: 0, warn: 1, info: 2, debug: 3 } as const;
export type LogLevel = keyof typeof LEVELS;

function levelFromEnv(): LogLevel {
  const raw = (process.env['DROIDBUS_LOG'] ?? 'warn').toLowerCase();
  return raw in LEVELS ? (raw as LogLevel) : 'warn';
}

let threshold = LEVELS[levelFromEnv()];

/** Changes the log level at run time (tests, `--verbose`). */
export function setLogLevel(level: LogLevel): void {
  threshold = LEVELS[level];
}

export interface Logger {
  error(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
}

function write(scope: string, level: LogLevel, message: string, fields?: Record<string, unknown>): void {
  if (LEVELS[level] > threshold) {
    return;
  }
  const extra = fields && Object.keys(fields).length > 0 ? ' ' + safeJson(fields) : '';
  process.stderr.write(`droidbus ${level} [${scope}] ${message}${extra}\n`);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return '[unserializable]';
  }
}

/** A logger whose lines name `scope` (a module or actor address). */
export function logger(scope: string): Logger {
  return {
    error: (m, f) => write(scope, 'error', m, f),
    warn: (m, f) => write(scope, 'warn', m, f),
    info: (m, f) => write(scope, 'info', m, f),
    debug: (m, f) => write(scope, 'debug', m, f),
  };
}
