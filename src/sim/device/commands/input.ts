import type { CommandFn } from '../../shell/command.js';
import { sleepFor } from '../../shell/builtins-misc.js';
import type { Device } from '../device.js';
import { noteInput } from '../input-log.js';
import { keyEvent, swipe, tap, typeText } from '../ui/input-actions.js';
import { keyCodeFromString } from './keycodes.js';

const SOURCES = new Set([
  'keyboard',
  'mouse',
  'joystick',
  'touchnavigation',
  'touchpad',
  'trackball',
  'dpad',
  'stylus',
  'gamepad',
  'touchscreen',
  'rotaryencoder',
]);

const USAGE = `Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The sources are:
      dpad
      keyboard
      mouse
      touchpad
      gamepad
      touchnavigation
      joystick
      touchscreen
      stylus
      trackball

-d: specify the display ID.
      (Default: -1 for key event, 0 for motion event if not specified.)
The commands and default sources are:
      text <string> (Default: touchscreen)
      keyevent [--longpress|--doubletap] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
      roll <dx> <dy> (Default: trackball)
      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)
      keycombination [-t duration(ms)] <key code 1> <key code 2> ... (Default: keyboard, the key order is important here.)
`;

function num(s: string | undefined): number | null {
  if (s === undefined || !/^-?\d+(\.\d+)?$/.test(s)) {
    return null;
  }
  return Math.round(Number(s));
}

/** `input` (InputShellCommand): taps, swipes, text and keys change the simulated screen. */
export const input: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const args = ctx.argv.slice(1);
  if (args[0] !== undefined && SOURCES.has(args[0])) {
    args.shift();
  }
  if (args[0] === '-d') {
    args.splice(0, 2);
  }
  const [cmd, ...rest] = args;
  if (cmd === undefined) {
    await ctx.stdout.write(USAGE);
    return 1;
  }
  // `input` is a Java program: each call starts a process (`sim latency input MS`; 0 by default).
  if (dev.inputLatencyMs > 0 && !(await sleepFor(dev.inputLatencyMs, ctx.signal))) {
    return 130;
  }
  const invalid = async (): Promise<number> => {
    await ctx.stderr.write(`Error: Invalid arguments for command: ${cmd}\n${USAGE}`);
    return 1;
  };
  const record = (): void => {
    noteInput(dev.stats, [cmd, ...rest.map((a) => (/^-?\d+(\.\d+)?$/.test(a) ? Number(a) : a))]);
  };
  switch (cmd) {
    case 'tap': {
      const x = num(rest[0]);
      const y = num(rest[1]);
      if (x === null || y === null || rest.length !== 2) {
        return invalid();
      }
      record();
      tap(dev, x, y);
      return 0;
    }
    case 'swipe':
    case 'draganddrop': {
      const [x1, y1, x2, y2] = rest.slice(0, 4).map(num);
      if (
        x1 === undefined ||
        y1 === undefined ||
        x2 === undefined ||
        y2 === undefined ||
        x1 === null ||
        y1 === null ||
        x2 === null ||
        y2 === null ||
        rest.length > 5
      ) {
        return invalid();
      }
      const duration = rest[4] === undefined ? 300 : (num(rest[4]) ?? 300);
      record();
      if (cmd === 'swipe') {
        swipe(dev, x1, y1, x2, y2);
      }
      await sleepFor(Math.min(2000, Math.max(0, duration)), ctx.signal);
      return 0;
    }
    case 'text': {
      if (rest.length === 0) {
        return invalid();
      }
      record();
      // Only the first argument is typed, as on a device; `%s` stands for a space.
      const text = (rest[0] as string).replace(/%s/g, ' ');
      if (/[^\x20-\x7e\n\t]/.test(text)) {
        await ctx.stderr.write(
          "Exception occurred while executing 'text':\njava.lang.NullPointerException: Attempt to get length of null array\n\tat com.android.server.input.InputShellCommand.sendText(InputShellCommand.java:322)\n\tat com.android.server.input.InputShellCommand.runText(InputShellCommand.java:302)\n\tat com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java:238)\n\tat com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)\n",
        );
        return 255;
      }
      typeText(dev, text);
      return 0;
    }
    case 'keyevent': {
      const codes = rest.filter((a) => !a.startsWith('--'));
      if (codes.length === 0) {
        return invalid();
      }
      record();
      for (const c of codes) {
        keyEvent(dev, keyCodeFromString(c));
      }
      return 0;
    }
    case 'keycombination': {
      record();
      return 0;
    }
    case 'press':
    case 'roll':
    case 'motionevent':
      record();
      if (cmd === 'motionevent' && rest[0]?.toUpperCase() === 'UP') {
        const x = num(rest[1]);
        const y = num(rest[2]);
        if (x !== null && y !== null) {
          tap(dev, x, y);
        }
      }
      return 0;
    default:
      await ctx.stderr.write(`Error: Unknown command: ${cmd}\n${USAGE}`);
      return 1;
  }
};
