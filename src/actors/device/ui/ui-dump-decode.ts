/**
 * Turns the bytes of a dump into text. `uiautomator dump` writes UTF-8, but output that passed
 * through other tools arrives as UTF-16 (with or without a byte order mark) or with invalid bytes.
 */
/**
 * Decodes dump bytes: a UTF-16 byte order mark (or the `<\0` pattern of BOM-less UTF-16) selects
 * UTF-16; everything else is UTF-8, with U+FFFD for invalid sequences.
 */
export function decodeDumpBytes(bytes: Uint8Array): { text: string; repairs: string[] } {
  const repairs: string[] = [];
  const b0 = bytes[0];
  const b1 = bytes[1];
  if (b0 === 0xff && b1 === 0xfe) {
    repairs.push('utf16le');
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), repairs };
  }
  if (b0 === 0xfe && b1 === 0xff) {
    repairs.push('utf16be');
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), repairs };
  }
  if (bytes.length >= 4 && b0 === 0x3c && b1 === 0 && bytes[3] === 0) {
    repairs.push('utf16le');
    return { text: new TextDecoder('utf-16le').decode(bytes), repairs };
  }
  if (bytes.length >= 4 && b0 === 0 && b1 === 0x3c && bytes[2] === 0) {
    repairs.push('utf16be');
    return { text: new TextDecoder('utf-16be').decode(bytes), repairs };
  }
  const start = b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = bytes.subarray(start);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), repairs };
  } catch {
    repairs.push('invalid_utf8');
    return { text: new TextDecoder('utf-8').decode(body), repairs };
  }
}
