import { AdbError } from '../adb/errors.js';
import { BusError } from '../bus/errors.js';

/** Turns an adb failure into the bus error a tool reports (anything else passes through). */
export function busErrorFromAdb(err: unknown): unknown {
  if (!(err instanceof AdbError)) {
    return err;
  }
  switch (err.kind) {
    case 'device_not_found':
    case 'device_offline':
    case 'unauthorized':
      return new BusError('DEVICE_OFFLINE', err.message);
    case 'timeout':
      return new BusError('TIMEOUT', err.message);
    case 'cancelled':
      return new BusError('CANCELLED', err.message);
    case 'server_unreachable':
      return new BusError('UNAVAILABLE', err.message);
    case 'too_large':
    case 'failed':
      return new BusError('FAILED', err.message);
    default: {
      const never: never = err.kind;
      return new BusError('FAILED', `${String(never)}: ${err.message}`);
    }
  }
}

/** Runs `work`, reporting adb failures as bus errors. */
export async function withAdbErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw busErrorFromAdb(err);
  }
}
