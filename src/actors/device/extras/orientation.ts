/**
 * `set_device_orientation` on the device, through the system settings every Android version reads:
 * `accelerometer_rotation` 0 locks the screen at `user_rotation` (0 portrait, 1 landscape, 2 and 3
 * the reversed ones); 1 lets the accelerometer decide.
 */
import { joinReads, READS, readCommand } from '../../../device/reads.js';
import { sh } from '../../../adb/shell-command.js';
import { BusError } from '../../../bus/errors.js';
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import { ROTATION_OF, orientationOfRotation } from '../../../util/app-args.js';
import { pmFailure } from '../../../device/parsers/am-start.js';
import { outputOf, type DeviceShell } from '../../../device/device-shell.js';

type RotationState = ResponseOf<'device.orientation'>['current'];

const MARK = '@@droidbus@@';

/** Reads both settings in one round trip. */
export async function readRotation(shell: DeviceShell): Promise<RotationState> {
  const r = await shell(joinReads(MARK, readCommand(READS.autoRotate), readCommand(READS.userRotation)));
  const [auto, rotation] = r.stdout.split(MARK).map((s) => s.trim());
  const accelerometer = auto === '1' ? true : auto === '0' ? false : null;
  const user = rotation !== undefined && /^\d+$/.test(rotation) ? Number(rotation) : null;
  return {
    orientation:
      accelerometer === true
        ? 'auto'
        : user !== null && accelerometer === false
          ? orientationOfRotation(user)
          : null,
    accelerometer_rotation: accelerometer,
    user_rotation: user,
  };
}

/** Locks the screen in an orientation, or gives it back to the accelerometer. */
export async function setOrientation(
  serial: string,
  shell: DeviceShell,
  p: Pick<PayloadOf<'device.orientation'>, 'orientation'>,
): Promise<ResponseOf<'device.orientation'>> {
  const previous = await readRotation(shell);
  const command =
    p.orientation === 'auto'
      ? sh`settings put system accelerometer_rotation 1`
      : sh`settings put system accelerometer_rotation 0 && settings put system user_rotation ${ROTATION_OF[p.orientation]}`;
  const r = await shell(command);
  const failure = pmFailure(outputOf(r), r.exitCode);
  if (failure !== null) {
    throw new BusError('FAILED', `could not set the orientation of ${serial}: ${failure}`);
  }
  return { previous, current: await readRotation(shell) };
}
