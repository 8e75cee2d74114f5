/** A device as the adb server lists it (`host:devices-l`, `host:track-devices-l`). */
export interface AdbDeviceEntry {
  serial: string;
  /** device, offline, unauthorized, authorizing, connecting, recovery, sideload, bootloader, rescue, "no permissions", … */
  state: string;
  product: string | null;
  model: string | null;
  device: string | null;
  transportId: string | null;
  /** e.g. `usb:1-1` for USB devices. */
  usb: string | null;
}

/**
 * Parses the server's long device list. Columns are separated by runs of spaces; the state may be
 * two words (`no permissions (…)`), so everything between the serial and the first `key:value`
 * is the state.
 */
export function parseDeviceList(text: string): AdbDeviceEntry[] {
  const entries: AdbDeviceEntry[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (!line) {
      continue;
    }
    const tokens = line.split(/\s+/);
    const serial = tokens.shift()!;
    const state: string[] = [];
    const props: Record<string, string> = {};
    let inProps = false;
    for (const token of tokens) {
      const colon = token.indexOf(':');
      if (colon > 0 && /^(product|model|device|transport_id|usb|features)$/.test(token.slice(0, colon))) {
        inProps = true;
        props[token.slice(0, colon)] = token.slice(colon + 1);
      } else if (!inProps) {
        state.push(token);
      }
    }
    entries.push({
      serial,
      state: state.join(' ') || 'unknown',
      product: props['product'] ?? null,
      model: props['model'] ?? null,
      device: props['device'] ?? null,
      transportId: props['transport_id'] ?? null,
      usb: props['usb'] ?? null,
    });
  }
  return entries;
}

/** Reads a 4-hex-digit length-prefixed message (host services answer this way). */
export function readLengthPrefixed(data: Buffer): string {
  if (data.length < 4) {
    return '';
  }
  const len = parseInt(data.toString('latin1', 0, 4), 16);
  return data.toString('utf8', 4, 4 + len);
}

/** The hint a person needs for a device in a state other than `device`. */
export function stateHint(state: string): string | null {
  if (state === 'device') {
    return null;
  }
  if (state === 'unauthorized') {
    return 'Unlock the device and accept the "Allow USB debugging?" prompt (tick "Always allow").';
  }
  if (state === 'offline') {
    return 'The device is connected but not answering: reconnect the cable, or run `adb reconnect offline`.';
  }
  if (state === 'authorizing' || state === 'connecting') {
    return 'The device is still connecting; try again in a few seconds.';
  }
  if (state.startsWith('no permissions')) {
    return 'The USB device is not accessible to this user: install the Android udev rules (Debian/Ubuntu: sudo apt install android-sdk-platform-tools-common) and reconnect.';
  }
  return `The device is in ${state} mode; reboot it into Android to use it.`;
}
