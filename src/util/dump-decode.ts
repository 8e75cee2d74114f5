/**
 * Turns the bytes of a dump into text. `uiautomator dump` writes UTF-8, but output that passed
 * through other tools arrives as UTF-16 (with or without a byte order mark) or with invalid bytes.
 */
/**
 * Decodes dump bytes: a UTF-16 byte order mark (or the `<\0` pattern of BOM-less UTF-16) selects
 * UTF-16; everything else is UTF-8, or, when that fails, the East Asian legacy encoding the bytes are
 * plainly in (`encoding_euc-kr` …), else UTF-8 with U+FFFD for invalid sequences.
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
    const legacy = decodeLegacy(body);
    if (legacy !== null) {
      repairs.push(`encoding_${legacy.charset}`);
      return { text: legacy.text, repairs };
    }
    repairs.push('invalid_utf8');
    return { text: new TextDecoder('utf-8').decode(body), repairs };
  }
}

/**
 * East Asian legacy encodings a dump that is not UTF-8 is most likely in (saved through a console or tool
 * with that code page), each with the script its text is written in. WHATWG's `euc-kr` is Windows-949
 * (CP949/UHC), `gbk` decodes GB18030.
 */
const LEGACY_ENCODINGS: readonly { charset: string; script: RegExp }[] = [
  { charset: 'euc-kr', script: /[\uAC00-\uD7A3\u3131-\u318E]/u },
  { charset: 'gbk', script: /[\u4E00-\u9FFF\u3000-\u303F\uFF00-\uFFEF]/u },
  { charset: 'shift_jis', script: /[\u3040-\u30FF\u4E00-\u9FFF\u3000-\u303F\uFF00-\uFFEF]/u },
  { charset: 'big5', script: /[\u4E00-\u9FFF\u3000-\u303F\uFF00-\uFFEF]/u },
];

/**
 * The first legacy encoding that decodes the bytes without an error and whose text is at least 90 % its
 * own script (Korean decoded as GBK passes as Chinese, so Korean, whose Hangul no other encoding yields,
 * is tried first); null when none fits, and the caller keeps UTF-8 with U+FFFD.
 */
function decodeLegacy(bytes: Uint8Array): { charset: string; text: string } | null {
  for (const { charset, script } of LEGACY_ENCODINGS) {
    let text: string;
    try {
      text = new TextDecoder(charset, { fatal: true }).decode(bytes);
    } catch {
      continue;
    }
    let wide = 0;
    let inScript = 0;
    for (const ch of text) {
      if (ch.charCodeAt(0) >= 0x80) {
        wide++;
        if (script.test(ch)) {
          inScript++;
        }
      }
    }
    if (wide > 0 && inScript / wide >= 0.9) {
      return { charset, text };
    }
  }
  return null;
}
