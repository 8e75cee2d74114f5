/**
 * Intents as `am` parses them from the command line (Intent.parseCommandArgs) and prints them.
 *
 * Evidence: frameworks/base/core/java/android/content/Intent.java (parseCommandArgs: the options and
 * extra types `am` accepts; toShortString: how it prints one) and ActivityManagerShellCommand.java.
 */

export type ExtraType =
  | 'string'
  | 'null'
  | 'int'
  | 'long'
  | 'float'
  | 'double'
  | 'bool'
  | 'uri'
  | 'component'
  | 'int[]'
  | 'long[]'
  | 'float[]'
  | 'string[]';

export interface Intent {
  action: string | null;
  data: string | null;
  type: string | null;
  categories: string[];
  component: { pkg: string; cls: string } | null;
  pkg: string | null;
  flags: number;
  extras: Map<string, { type: ExtraType; value: string }>;
}

/** What `am` options besides the intent say. */
export interface AmOptions {
  wait: boolean;
  stop: boolean;
  repeat: number;
  user: string | null;
  receiverPermission: string | null;
}

/** A command line `am` refuses; the message follows `Exception occurred while executing …:`. */
export class IntentArgError extends Error {}

const FLAG_OPTIONS: Readonly<Record<string, number>> = {
  '--grant-read-uri-permission': 0x1,
  '--grant-write-uri-permission': 0x2,
  '--grant-persistable-uri-permission': 0x40,
  '--grant-prefix-uri-permission': 0x80,
  '--debug-log-resolution': 0x8,
  '--exclude-stopped-packages': 0x10,
  '--include-stopped-packages': 0x20,
  '--activity-brought-to-front': 0x400000,
  '--activity-clear-top': 0x4000000,
  '--activity-clear-when-task-reset': 0x80000,
  '--activity-exclude-from-recents': 0x800000,
  '--activity-launched-from-history': 0x100000,
  '--activity-multiple-task': 0x8000000,
  '--activity-no-animation': 0x10000,
  '--activity-no-history': 0x40000000,
  '--activity-no-user-action': 0x40000,
  '--activity-previous-is-top': 0x1000000,
  '--activity-reorder-to-front': 0x20000,
  '--activity-reset-task-if-needed': 0x200000,
  '--activity-single-top': 0x20000000,
  '--activity-clear-task': 0x8000,
  '--activity-task-on-home': 0x4000,
  '--activity-match-external': 0x800,
  '--activity-new-task': 0x10000000,
  '--receiver-registered-only': 0x40000000,
  '--receiver-replace-pending': 0x20000000,
  '--receiver-foreground': 0x10000000,
  '--receiver-no-abort': 0x8000000,
  '--receiver-include-background': 0x1000000,
};

const EXTRA_OPTIONS: Readonly<Record<string, ExtraType>> = {
  '-e': 'string',
  '--es': 'string',
  '--esn': 'null',
  '--ei': 'int',
  '--el': 'long',
  '--ef': 'float',
  '--ed': 'double',
  '--ez': 'bool',
  '--eu': 'uri',
  '--ecn': 'component',
  '--eia': 'int[]',
  '--eial': 'int[]',
  '--ela': 'long[]',
  '--elal': 'long[]',
  '--efa': 'float[]',
  '--efal': 'float[]',
  '--esa': 'string[]',
  '--esal': 'string[]',
};

/** Options that take a value and do not shape the intent. */
const VALUE_OPTIONS = new Set([
  '--user',
  '-P',
  '--start-profiler',
  '--sampling',
  '--attach-agent',
  '--attach-agent-bind',
  '--display',
  '--windowingMode',
  '--activityType',
  '--task',
  '--receiver-permission',
  '-R',
  '--splashscreen-show-icon',
]);
const FLAG_ONLY_OPTIONS = new Set([
  '-W',
  '-S',
  '-D',
  '-N',
  '--streaming',
  '--track-allocation',
  '--task-overlay',
  '--lock-task',
  '--allow-background-activity-starts',
  '--async',
  '--background',
  '--dismiss-keyguard',
  '--selector',
]);

/** Parses `ComponentName.unflattenFromString`: `pkg/cls` with `.cls` relative to pkg. */
export function parseComponent(s: string): { pkg: string; cls: string } | null {
  const slash = s.indexOf('/');
  if (slash <= 0 || slash === s.length - 1) {
    return null;
  }
  const pkg = s.slice(0, slash);
  const cls = s.slice(slash + 1);
  return { pkg, cls: cls.startsWith('.') ? pkg + cls : cls };
}

function checkNumber(type: ExtraType, value: string): void {
  const items = type.endsWith('[]') ? value.split(',') : [value];
  for (const v of items) {
    if ((type.startsWith('int') || type.startsWith('long')) && !/^-?\d+$/.test(v.trim())) {
      throw new IntentArgError(`java.lang.NumberFormatException: For input string: "${v}"`);
    }
    if ((type.startsWith('float') || type.startsWith('double')) && Number.isNaN(Number(v))) {
      throw new IntentArgError(`java.lang.NumberFormatException: For input string: "${v}"`);
    }
  }
}

/** Parses the intent and `am` options of a command line (after the subcommand). Throws IntentArgError. */
export function parseIntentArgs(args: readonly string[]): { intent: Intent; opts: AmOptions } {
  const intent: Intent = {
    action: null,
    data: null,
    type: null,
    categories: [],
    component: null,
    pkg: null,
    flags: 0,
    extras: new Map(),
  };
  const opts: AmOptions = { wait: false, stop: false, repeat: 1, user: null, receiverPermission: null };
  let i = 0;
  const value = (opt: string): string => {
    const v = args[++i];
    if (v === undefined) {
      throw new IntentArgError(`java.lang.IllegalArgumentException: Argument expected after "${opt}"`);
    }
    return v;
  };
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (!a.startsWith('-')) {
      break;
    }
    if (a === '-a') {
      intent.action = value(a);
    } else if (a === '-d') {
      intent.data = value(a);
    } else if (a === '-t') {
      intent.type = value(a);
    } else if (a === '-c') {
      intent.categories.push(value(a));
    } else if (a === '-n') {
      const v = value(a);
      const c = parseComponent(v);
      if (c === null) {
        throw new IntentArgError(`java.lang.IllegalArgumentException: Bad component name: ${v}`);
      }
      intent.component = c;
    } else if (a === '-p') {
      intent.pkg = value(a);
    } else if (a === '-f') {
      const v = value(a);
      intent.flags |= Number.parseInt(v, v.startsWith('0x') ? 16 : 10);
    } else if (EXTRA_OPTIONS[a] !== undefined) {
      const type = EXTRA_OPTIONS[a];
      const key = value(a);
      const v = type === 'null' ? '' : value(a);
      if (type === 'bool' && !/^(true|false|t|f|1|0)$/i.test(v)) {
        throw new IntentArgError(`java.lang.IllegalArgumentException: Invalid boolean value: ${v}`);
      }
      checkNumber(type, v);
      intent.extras.set(key, { type, value: v });
    } else if (FLAG_OPTIONS[a] !== undefined) {
      intent.flags |= FLAG_OPTIONS[a];
    } else if (a === '-W') {
      opts.wait = true;
    } else if (a === '-S') {
      opts.stop = true;
    } else if (a === '-R') {
      opts.repeat = Number(value(a));
    } else if (a === '--user') {
      opts.user = value(a);
    } else if (a === '--receiver-permission') {
      opts.receiverPermission = value(a);
    } else if (VALUE_OPTIONS.has(a)) {
      value(a);
    } else if (FLAG_ONLY_OPTIONS.has(a)) {
      // accepted, no effect in the simulator
    } else {
      throw new IntentArgError(`java.lang.IllegalArgumentException: Unknown option: ${a}`);
    }
  }
  const rest = args.slice(i);
  if (rest.length > 1) {
    throw new IntentArgError(`java.lang.IllegalArgumentException: Unknown option: ${rest[1] ?? ''}`);
  }
  const arg = rest[0];
  if (arg !== undefined) {
    if (arg.includes(':')) {
      if (arg.startsWith('intent:') || arg.startsWith('#Intent;')) {
        const body = /#Intent;(.*);end/.exec(arg)?.[1] ?? '';
        for (const part of body.split(';')) {
          const [k, v = ''] = part.split('=', 2) as [string, string | undefined];
          if (k === 'action') {
            intent.action ??= v;
          } else if (k === 'category') {
            intent.categories.push(v);
          } else if (k === 'component') {
            intent.component ??= parseComponent(v);
          } else if (k === 'package') {
            intent.pkg ??= v;
          } else if (k === 'scheme') {
            intent.data ??= `${v}:${arg.slice('intent:'.length, arg.indexOf('#'))}`;
          }
        }
      } else {
        intent.data ??= arg;
        intent.action ??= 'android.intent.action.VIEW';
      }
    } else if (arg.includes('/')) {
      intent.action ??= 'android.intent.action.MAIN';
      intent.categories.push('android.intent.category.LAUNCHER');
      intent.component ??= parseComponent(arg);
    } else {
      intent.action ??= 'android.intent.action.MAIN';
      intent.categories.push('android.intent.category.LAUNCHER');
      intent.pkg ??= arg;
    }
  }
  return { intent, opts };
}

/** Uri.toSafeString: web URIs lose their path, phone-like ones their digits. */
export function safeUri(uri: string): string {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(uri);
  if (m === null) {
    return uri;
  }
  const scheme = m[1] as string;
  const ssp = m[2] as string;
  const lower = scheme.toLowerCase();
  if (['tel', 'sip', 'sms', 'smsto', 'mailto', 'nfc'].includes(lower)) {
    return `${scheme}:${ssp.replace(/[^-@.]/g, 'x')}`;
  }
  if (['http', 'https', 'ftp', 'rtsp'].includes(lower)) {
    const host = /^\/\/([^/?#]*)/.exec(ssp)?.[1] ?? '';
    return `${scheme}://${host}/...`;
  }
  return uri;
}

/** `Intent { act=… cat=[…] dat=… typ=… flg=0x… pkg=… cmp=… (has extras) }` as Intent.toString prints it. */
export function intentToString(intent: Intent): string {
  const parts: string[] = [];
  if (intent.action !== null) {
    parts.push(`act=${intent.action}`);
  }
  if (intent.categories.length > 0) {
    parts.push(`cat=[${intent.categories.join(',')}]`);
  }
  if (intent.data !== null) {
    parts.push(`dat=${safeUri(intent.data)}`);
  }
  if (intent.type !== null) {
    parts.push(`typ=${intent.type}`);
  }
  if (intent.flags !== 0) {
    parts.push(`flg=0x${(intent.flags >>> 0).toString(16)}`);
  }
  if (intent.pkg !== null) {
    parts.push(`pkg=${intent.pkg}`);
  }
  if (intent.component !== null) {
    const { pkg, cls } = intent.component;
    parts.push(`cmp=${cls.startsWith(pkg + '.') ? `${pkg}/${cls.slice(pkg.length)}` : `${pkg}/${cls}`}`);
  }
  if (intent.extras.size > 0) {
    parts.push('(has extras)');
  }
  return `Intent { ${parts.join(' ')} }`;
}

/** The string value of an extra, or undefined. */
export function stringExtra(intent: Intent, key: string): string | undefined {
  return intent.extras.get(key)?.value;
}
