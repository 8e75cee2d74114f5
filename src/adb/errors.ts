/** Why talking to adb failed, in the terms a tool error needs. */
export type AdbErrorKind =
  | 'server_unreachable'
  | 'device_not_found'
  | 'device_offline'
  | 'unauthorized'
  | 'failed'
  | 'timeout'
  | 'cancelled'
  | 'too_large';

/** An error from the adb server, the device, or the connection to them. */
export class AdbError extends Error {
  constructor(
    readonly kind: AdbErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'AdbError';
  }
}

/** Classifies the adb server's FAIL message. */
export function adbFailure(message: string, serial: string | null): AdbError {
  const m = message.trim();
  if (/not found/i.test(m) && /device|transport/i.test(m)) {
    return new AdbError('device_not_found', `device '${serial ?? '?'}' is not connected (adb: ${m})`);
  }
  // Debian's adb 1.0.41 answers FAIL `closed` to a service opened on a device whose transport is
  // going away (seen when `adb disconnect` lands while droidbus opens its next command): the device
  // left, whichever of this answer and the tracker's word comes first.
  if (m === 'closed' && serial !== null) {
    return new AdbError('device_offline', `device '${serial}' is no longer connected (adb: ${m})`);
  }
  if (/offline/i.test(m)) {
    return new AdbError('device_offline', `device '${serial ?? '?'}' is offline (adb: ${m})`);
  }
  if (/unauthorized/i.test(m)) {
    return new AdbError(
      'unauthorized',
      `device '${serial ?? '?'}' is unauthorized: accept the "Allow USB debugging?" prompt on the device (adb: ${m.split('\n')[0]})`,
    );
  }
  return new AdbError('failed', `adb: ${m}`);
}
