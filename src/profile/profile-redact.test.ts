import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type SimDevice, runOn, createSimDevice } from '../sim/index.js';
import { learnIdentifiers, newAddressBook, redactOutput } from './profile-redact.js';

const identity = {
  serial: '127.0.0.1:7100',
  product: 'husky',
  model: 'Pixel 8 Pro',
  device: 'husky',
  sdk: 35,
  release: '15',
  width: 1344,
  height: 2992,
  density: 480,
};
let dev: SimDevice | undefined;
afterEach(() => dev?.close());

const opts = { serial: '127.0.0.1:7100', keepNotifications: false };
const text = (b: Uint8Array): string => Buffer.from(b).toString('utf8');

describe('profile redaction', () => {
  it('replaces the serial properties of a getprop and leaves every other byte alone', async () => {
    dev = createSimDevice({ identity, logcatRate: 0 });
    const props = (await runOn(dev, 'getprop')).bytes;
    const serial = /^\[ro\.serialno\]: \[(\w+)\]$/m.exec(text(props))?.[1];
    expect(serial).toBeDefined();
    const r = redactOutput('getprop', ['getprop'], props, opts);
    expect(text(r.bytes)).toContain('[ro.serialno]: [SERIAL-REDACTED]');
    expect(text(r.bytes)).not.toContain(serial);
    expect(r.redactions).toEqual([
      { command: 'getprop', what: 'serial number', count: 2, why: 'it identifies this device' },
    ]);
    // Only the two values changed.
    const before = text(props).split('\n');
    const after = text(r.bytes).split('\n');
    expect(after).toHaveLength(before.length);
    expect(before.filter((l, i) => l !== after[i]).map((l) => l.slice(0, l.indexOf(']') + 1))).toEqual([
      '[ro.boot.serialno]',
      '[ro.serialno]',
    ]);
  });

  it('keeps UTF-16 output UTF-16, byte order mark included', async () => {
    dev = createSimDevice({ identity, logcatRate: 0 });
    const utf8 = (await runOn(dev, 'getprop')).bytes;
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text(utf8), 'utf16le')]);
    const r = redactOutput('getprop', ['getprop'], utf16, opts);
    expect([r.bytes[0], r.bytes[1]]).toEqual([0xff, 0xfe]);
    expect(Buffer.from(r.bytes).subarray(2).toString('utf16le')).toBe(
      text(redactOutput('getprop', ['getprop'], utf8, opts).bytes),
    );
  });

  it('replaces MAC and IP addresses, the same address by the same stand-in, and not version numbers', () => {
    // Lines in the shapes AOSP prints them: LinkProperties.toString, WifiInfo.toString, dumpsys package.
    const out = [
      'LinkAddresses: [ fe80::1c5e:9dff:fe2e:1e4f/64,192.168.1.217/24 ] DnsAddresses: [ /192.168.1.1 ]',
      'SSID: "home", BSSID: 3c:a6:2f:11:22:33, MAC: 02:00:00:00:00:00, IP: /192.168.1.217',
      'Routes: [ 0.0.0.0/0 -> 192.168.1.1 wlan0 ] localhost 127.0.0.1',
      '    versionName=121.0.6167.164',
      '    versionName=13.6.08.593161388',
    ].join('\n');
    const r = redactOutput(null, ['dumpsys', 'connectivity'], Buffer.from(out), opts);
    const t = text(r.bytes);
    expect(t).not.toMatch(/192\.168\.|3c:a6:2f|fe80::1c5e/);
    expect(t).toContain('BSSID: 02:00:00:00:00:00');
    expect(t.match(/192\.0\.2\.1\b/g)).toHaveLength(2); // 192.168.1.217 twice
    expect(t.match(/192\.0\.2\.2\b/g)).toHaveLength(2); // 192.168.1.1 twice
    expect(t).toContain('2001:db8::1/64');
    expect(t).toContain('0.0.0.0/0');
    expect(t).toContain('127.0.0.1');
    expect(t).toContain('versionName=121.0.6167.164');
    expect(t).toContain('versionName=13.6.08.593161388');
    expect(t).toContain('SSID: "redacted"');
    expect(r.redactions.map((x) => [x.what, x.count])).toEqual([
      ['Wi-Fi network name', 1],
      ['MAC address', 1],
      ['IP address', 5],
    ]);
  });

  it('replaces e-mail addresses and account names', () => {
    // Account.toString: "Account {name=" + name + ", type=" + type + "}".
    const out =
      'Account {name=ada.lovelace@gmail.com, type=com.google}\nAccount {name=Ada L, type=com.whatsapp}\n';
    const t = text(redactOutput(null, ['dumpsys', 'account'], Buffer.from(out), opts).bytes);
    expect(t).toBe(
      'Account {name=user@example.com, type=com.google}\nAccount {name=redacted, type=com.whatsapp}\n',
    );
  });

  it('hides notification texts as AOSP does without --noredact, unless told to keep them', async () => {
    dev = createSimDevice({ identity, logcatRate: 0 });
    await runOn(dev, "sim notify com.droidbus.sample 'Ada Lovelace' 'Your code is 482913'");
    const dump = (await runOn(dev, 'dumpsys notification --noredact')).bytes;
    expect(text(dump)).toContain('Your code is 482913');
    const r = redactOutput('dumpsys-notification', ['dumpsys', 'notification', '--noredact'], dump, opts);
    expect(text(r.bytes)).not.toContain('482913');
    expect(text(r.bytes)).not.toContain('Ada Lovelace');
    expect(text(r.bytes)).toMatch(/android\.title=String \[length=12\]/);
    expect(text(r.bytes)).toMatch(/android\.text=String \[length=19\]/);
    expect(r.redactions.find((x) => x.what === 'notification text')?.count).toBeGreaterThanOrEqual(2);
    const kept = redactOutput('dumpsys-notification', ['dumpsys', 'notification', '--noredact'], dump, {
      ...opts,
      keepNotifications: true,
    });
    expect(text(kept.bytes)).toContain('Your code is 482913');
  });

  it('hides ticker texts of a real grep-filtered dump, and leaves tickerText=null', () => {
    const dump = readFileSync(
      new URL('../../tests/fixtures/notifications/phone-grep-pkg-ticker.txt', import.meta.url),
    );
    const t = text(redactOutput('dumpsys-notification', ['dumpsys', 'notification'], dump, opts).bytes);
    expect(t).toContain('tickerText=[length=11]'); // "Missed C..."
    expect(t).not.toContain('Missed C');
    expect(t.match(/tickerText=null/g)).toHaveLength(4);
  });

  it('leaves a PNG untouched', async () => {
    dev = createSimDevice({ identity, logcatRate: 0 });
    const png = (await runOn(dev, 'screencap -p')).bytes;
    const r = redactOutput('screencap', ['screencap', '-p'], png, opts);
    expect(r.bytes).toBe(png);
    expect(r.redactions).toEqual([]);
  });
});

describe('what apps log', () => {
  it('removes the identifiers getprop states wherever else they are printed, and logged secrets', () => {
    const book = newAddressBook();
    learnIdentifiers(book, Buffer.from('[ro.serialno]: [R58M1234ABC]\n[ro.boot.serialno]: [R58M1234ABC]\n'));
    const log = [
      'I Reg: serial R58M1234ABC android_id=0123456789abcdef',
      'D Net: SSID: "Smith Family" BSSID: 3c:a6:2f:11:22:33',
      'D Call: dialing +14155550123 via tel:+1-415-555-0123',
      'D Http: Authorization: Bearer ya29.a0AfB_byC3dEfGhIjKlMnOp access_token=abc123def456',
      'D Http: Set-Cookie: sid=deadbeef; Path=/',
      'I Ui: password="false" checked="false" versionName=1.2.3 at 12:00:01.123',
    ].join('\n');
    const r = redactOutput('log-dump', ['logcat', '-d'], Buffer.from(log), {
      serial: null,
      keepNotifications: false,
      book,
    });
    const t = Buffer.from(r.bytes).toString('latin1');
    for (const secret of [
      'R58M1234ABC',
      '0123456789abcdef',
      'Smith Family',
      '+14155550123',
      '415-555',
      'ya29.',
      'abc123def456',
      'deadbeef',
    ]) {
      expect(t, secret).not.toContain(secret);
    }
    expect(t).toContain('password="false" checked="false" versionName=1.2.3 at 12:00:01.123');
  });

  it("removes the device's own identifiers by value, whatever the text around them (issue 68)", () => {
    const book = newAddressBook();
    // What the recording reads to learn them: `settings get secure android_id`, and the saved
    // networks as AOSP's WifiShellCommand prints them (`%-12d %-32s %-4s` under its header).
    learnIdentifiers(book, Buffer.from('3c9b6c2a5bdcc4a7\n'), 'identity-android-id');
    const networks = [
      'Network Id      SSID                         Security type',
      `${'0'.padEnd(12)} ${'Agy Centre Open'.padEnd(32)} open`,
      `${'1'.padEnd(12)} ${'Smith-5G'.padEnd(32)} wpa2-psk`,
    ].join('\n');
    learnIdentifiers(book, Buffer.from(networks), 'identity-wifi-networks');
    const log = [
      'I Reg: android_id 3c9b6c2a5bdcc4a7',
      'I Reg: device=3c9b6c2a5bdcc4a7;',
      'D Wifi: joined Agy Centre Open after 2 tries; Smith-5G out of range',
      'D Call: calling +1 415 555 0199 now',
      'D Call: redial (415) 555-0199',
      'D Auth: Authorization: Bearer 0123456789abcdefghij',
      'I Ui: Agy Centre Opening hours 9-17',
    ].join('\n');
    learnIdentifiers(book, Buffer.from(log), 'log-dump');
    const r = redactOutput('log-dump', ['logcat', '-d'], Buffer.from(log), {
      serial: null,
      keepNotifications: false,
      book,
    });
    const t = Buffer.from(r.bytes).toString('latin1').split('\n');
    expect(t[0]).toBe('I Reg: android_id ANDROID-ID-REDACTED');
    expect(t[1]).toBe('I Reg: device=ANDROID-ID-REDACTED;');
    expect(t[2]).toBe('D Wifi: joined WIFI-REDACTED after 2 tries; WIFI-REDACTED out of range');
    expect(t[3]).toBe('D Call: calling +15550100 now');
    // The number learned from the line above, in its national form.
    expect(t[4]).toBe('D Call: redial +15550100');
    expect(t[5]).toBe('D Auth: Authorization: TOKEN-REDACTED');
    // A longer word is not a network name.
    expect(t[6]).toBe('I Ui: Agy Centre Opening hours 9-17');
    expect(r.redactions.map((x) => x.what).sort()).toEqual(
      ['Android ID', 'Wi-Fi network name', 'access token', 'phone number'].sort(),
    );
  });
});
