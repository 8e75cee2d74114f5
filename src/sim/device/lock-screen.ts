/**
 * The lock screen: the user's credential (none, PIN, password or pattern), whether the lock screen
 * is disabled ("None" rather than "Swipe"), and whether the keyguard shows. The keyguard shows when
 * the screen goes off unless the lock screen is disabled; `wm dismiss-keyguard` dismisses it when no
 * credential is set (with one it would show the bouncer, so it stays).
 *
 * `locksettings` answers as LockSettingsShellCommand does (frameworks/base/services/core/java/com/
 * android/server/locksettings/LockSettingsShellCommand.java, Android 14): every verb except help
 * first checks `--old` against the current credential — so `get-disabled` on a phone with a PIN
 * prints "Old password '' didn't match" and fails, which appium-adb's isLockEnabled reads as locked —
 * then prints its one line; a failed command exits 255 through `cmd lock_settings` (the ShellCommand's
 * -1) and 0 through `locksettings`.
 */
import type { CommandFn } from '../shell/command.js';

type CredentialType = 'pin' | 'password' | 'pattern';

/** PasswordMetrics.MIN_LOCK_PASSWORD_LENGTH and LockPatternUtils.MIN_LOCK_PATTERN_SIZE. */
const MIN_CREDENTIAL_LENGTH = 4;

export class LockScreen {
  credential: { type: CredentialType; value: string } | null = null;
  /** `locksettings set-disabled true`: no keyguard at all ("None"). */
  disabledFlag = false;
  showing = false;

  get secure(): boolean {
    return this.credential !== null;
  }

  /** LockPatternUtils.isLockScreenDisabled: only an insecure lock screen can be disabled. */
  get disabled(): boolean {
    return !this.secure && this.disabledFlag;
  }

  /**
   * The screen went off: KeyguardViewMediator shows the keyguard (doKeyguardLocked on sleep) unless
   * the lock screen is disabled (frameworks/base/packages/SystemUI/…/keyguard/KeyguardViewMediator.java).
   */
  screenOff(): void {
    this.showing = this.showing || !this.disabled;
  }

  /** `wm dismiss-keyguard`. */
  dismiss(): void {
    if (!this.secure) {
      this.showing = false;
    }
  }

  /**
   * KeyguardServiceDelegate.dump and KeyguardStateMonitor.dump (frameworks/base/services/core/java/
   * com/android/server/policy/keyguard/), as `dumpsys window` prints them inside the policy section.
   */
  dump(screenOn: boolean, prefix: string): string {
    const p2 = prefix + '  ';
    const p3 = p2 + '  ';
    return [
      `${prefix}KeyguardServiceDelegate`,
      `${p2}showing=${this.showing}`,
      `${p2}inputRestricted=${this.showing}`,
      `${p2}occluded=false`,
      `${p2}secure=${this.secure}`,
      `${p2}dreaming=false`,
      `${p2}systemIsReady=true`,
      `${p2}deviceHasKeyguard=true`,
      `${p2}enabled=true`,
      `${p2}offReason=OFF_BECAUSE_OF_USER`,
      `${p2}currentUser=0`,
      `${p2}bootCompleted=true`,
      `${p2}screenState=${screenOn ? 'SCREEN_STATE_ON' : 'SCREEN_STATE_OFF'}`,
      `${p2}interactiveState=${screenOn ? 'INTERACTIVE_STATE_AWAKE' : 'INTERACTIVE_STATE_SLEEP'}`,
      `${p2}KeyguardStateMonitor`,
      `${p3}mIsShowing=${this.showing}`,
      `${p3}mSimSecure=false`,
      `${p3}mInputRestricted=${this.showing}`,
      `${p3}mTrusted=false`,
      `${p3}mCurrentUserId=0`,
    ]
      .map((l) => l + '\n')
      .join('');
  }
}

const HELP = `lockSettings service commands:

NOTE: when a secure lock screen is set, most commands require the
--old <CREDENTIAL> option.

  help
    Prints this help text.

  get-disabled [--user USER_ID]
    Prints true if the lock screen is completely disabled, i.e. set to None.
    Otherwise prints false.

  set-disabled [--user USER_ID] <true|false>
    Sets whether the lock screen is disabled. If the lock screen is secure, this
    has no immediate effect. I.e. this can only change between Swipe and None.

  set-pattern [--old <CREDENTIAL>] [--user USER_ID] <PATTERN>
    Sets a secure lock screen that uses the given PATTERN. PATTERN is a series
    of digits 1-9 that identify the cells of the pattern.

  set-pin [--old <CREDENTIAL>] [--user USER_ID] <PIN>
    Sets a secure lock screen that uses the given PIN.

  set-password [--old <CREDENTIAL>] [--user USER_ID] <PASSWORD>
    Sets a secure lock screen that uses the given PASSWORD.

  clear [--old <CREDENTIAL>] [--user USER_ID]
    Clears the lock credential.

  verify [--old <CREDENTIAL>] [--user USER_ID]
    Verifies the lock credential.

`;

const SET_LABEL: Record<CredentialType, string> = { pin: 'Pin', password: 'Password', pattern: 'Pattern' };

/** What `locksettings` needs of a device. */
export interface LockHost {
  readonly ui: { readonly lock: LockScreen };
}

/** `cmd lock_settings VERB [--old CREDENTIAL] [--user USER_ID] [ARG]`: the ShellCommand's own code. */
export const lockSettingsCommand: CommandFn<LockHost> = async (ctx) => {
  const screen = ctx.host.ui.lock;
  const [verb, ...rest] = ctx.argv.slice(1);
  const out = (line: string) => ctx.stdout.write(line + '\n');
  if (verb === undefined || verb === 'help' || verb === '-h') {
    await ctx.stdout.write(HELP);
    return 0;
  }
  let old = '';
  let arg: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--old' || a === '--user') {
      const value = rest[++i];
      if (value === undefined) {
        await ctx.stderr.write(`Error: Argument expected after "${a}"\n`);
        return 255;
      }
      old = a === '--old' ? value : old;
    } else if (a.startsWith('-') && arg === undefined) {
      await ctx.stderr.write(`Unknown option: ${a}\n`);
      return 255;
    } else {
      arg ??= a;
    }
  }
  // checkCredential: every verb below runs only past it.
  if (screen.secure) {
    if (old !== screen.credential!.value) {
      await out(`Old password '${old}' didn't match`);
      return 255;
    }
  } else if (old !== '') {
    await out('Old password provided but user has no password');
    return 255;
  }
  switch (verb) {
    case 'get-disabled':
      await out(String(screen.disabled));
      return 0;
    case 'set-disabled':
      screen.disabledFlag = arg === 'true';
      await out(`Lock screen disabled set to ${screen.disabledFlag}`);
      return 0;
    case 'verify':
      await out('Lock credential verified successfully');
      return 0;
    case 'clear':
      screen.credential = null;
      await out('Lock credential cleared');
      return 0;
    case 'set-pin':
    case 'set-password':
    case 'set-pattern': {
      const type = verb.slice('set-'.length) as CredentialType;
      const value = arg ?? '';
      // LockscreenCredential and PasswordMetrics.validateCredential with no admin policy.
      if (value.length < MIN_CREDENTIAL_LENGTH) {
        await out(`New credential doesn't satisfy admin policies: TOO_SHORT(${MIN_CREDENTIAL_LENGTH})`);
        return 255;
      }
      screen.credential = { type, value };
      await out(`${SET_LABEL[type]} set to '${value}'`);
      return 0;
    }
    default:
      await ctx.stderr.write(`Unknown command: ${verb}\n`);
      return 0;
  }
};

/**
 * `locksettings …`: LockSettingsCmd (frameworks/base/cmds/locksettings) passes the arguments to the
 * service's shell command and drops its result, so the tool exits 0 whatever it printed — clients
 * such as appium-adb read the words, not the status.
 */
export const locksettings: CommandFn<LockHost> = async (ctx) => {
  await lockSettingsCommand(ctx);
  return 0;
};
